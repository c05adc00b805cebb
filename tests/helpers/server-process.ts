/**
 * The emulator as a child process (`bun src/main.ts`), for what an in-process server cannot show:
 * a kill -9 and a restart. The port is read from the ready line the gcloud emulator prints.
 */
import { PubSub } from "@google-cloud/pubsub";
import { join } from "node:path";
import { PROJECT } from "./project.ts";

const ROOT = join(import.meta.dir, "../..");
const READY = /\[pubsub\] INFO: Server started, listening on (\d+)/;

export interface ServerProcess {
  readonly port: number;
  readonly endpoint: string;
  readonly pid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /**
   * Resolves once its output matches `what`; rejects with the output after `ms`. A log line and
   * a gRPC answer travel on different pipes, so the answer can arrive before the line is read.
   */
  printed(what: string | RegExp, ms?: number): Promise<void>;
  /** Null while it runs; its exit code (or signal number + 128) once gone. */
  exitCode(): number | null;
  /** SIGKILL: no handler runs, nothing is flushed. Resolves once it is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (a clean stop); resolves with the exit code. */
  stop(): Promise<number>;
}

/**
 * Starts `bun src/main.ts --host-port 127.0.0.1:PORT …args` (or `command` in its place: a compiled
 * binary) after `wrap`, a command that execs its arguments (a ulimit, a cgroup); rejects if no
 * ready line within `ms`.
 */
export async function spawnServer(args: string[], { port = 0, ms = 20_000, wrap = [] as string[], command = [process.execPath, "src/main.ts"] } = {}): Promise<ServerProcess> {
  const child = Bun.spawn([...wrap, ...command, "--host-port", `127.0.0.1:${port}`, ...args], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  let text = "";
  let onText = () => {};
  const watchers = new Set<() => void>();
  const pump = async (s: ReadableStream<Uint8Array>) => {
    const dec = new TextDecoder();
    for await (const chunk of s) {
      text += dec.decode(chunk, { stream: true });
      onText();
      for (const w of watchers) w();
    }
  };
  void pump(child.stdout);
  void pump(child.stderr);
  const listening = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no ready line within ${ms} ms; output:\n${text}`));
    }, ms);
    onText = () => {
      const m = READY.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before its ready line; output:\n${text}`));
    });
  });
  return {
    port: listening,
    endpoint: `127.0.0.1:${listening}`,
    pid: child.pid,
    output: () => text,
    printed(what, ms = 10_000) {
      const seen = () => (typeof what === "string" ? text.includes(what) : what.test(text));
      if (seen()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const done = () => {
          if (!seen()) return;
          watchers.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          watchers.delete(done);
          reject(new Error(`not printed within ${ms} ms: ${what}; output:\n${text.slice(-4000)}`));
        }, ms);
        watchers.add(done);
      });
    },
    exitCode: () => child.exitCode ?? (child.signalCode ? 128 : null),
    async kill9() {
      child.kill("SIGKILL");
      await child.exited;
    },
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      const code = await child.exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Runs `bun src/main.ts …args` to its end, killed after `ms`: its exit code and what it printed on
 * each stream. Its environment is this one's without PUBSUB_* (the child must not take settings
 * from whoever runs the tests), plus `env`.
 */
export async function runMain(args: string[], { env = {} as Record<string, string>, ms = 10_000 } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PUBSUB_")));
  const child = Bun.spawn([process.execPath, "src/main.ts", ...args], { cwd: ROOT, env: { ...inherited, ...env }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const killer = setTimeout(() => child.kill("SIGKILL"), ms);
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(killer);
  return { code, stdout, stderr };
}

/** An official client for a server process (METADATA_SERVER_DETECTION=none is set by emulator.ts). */
export const clientFor = (port: number) =>
  new PubSub({ projectId: PROJECT, apiEndpoint: `127.0.0.1:${port}`, emulatorMode: true });

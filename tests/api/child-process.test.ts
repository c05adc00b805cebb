/**
 * The test API's other side (lib/index.cjs, what Node gets): the emulator as a Bun child process
 * behind the same interface. It answers the in-process walk-through alike, and a parent killed
 * with SIGKILL leaves no emulator behind.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { start as startInProcess } from "../../src/api/index.ts";
import type { Emulator } from "../../lib/index.d.ts";
import { walkThrough } from "../helpers/api-scenario.ts";
import { waitFor } from "../helpers/wait.ts";

const LIB = join(import.meta.dir, "../../lib/index.cjs");
const lib = (await import(LIB)) as typeof import("../../lib/index.d.ts");

const started: Emulator[] = [];
afterAll(() => Promise.all(started.map((e) => e.stop())));

/** Resolves once `pid` is gone (kill 0 fails); rejects after `ms`. */
async function gone(pid: number, ms: number): Promise<void> {
  const isGone = () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  await waitFor(isGone, ms, `process ${pid} to end`, 20);
}

const refused = (port: number) =>
  Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
    (s) => (s.end(), false),
    () => true,
  );

describe("start() as a child process (lib/index.cjs)", () => {
  test("answers the walk-through as the in-process emulator does", async () => {
    const child = await lib.start({ clock: "manual", project: "walk" });
    started.push(child);
    expect(child.mode).toBe("child-process");
    expect(child.pid).not.toBe(process.pid);
    expect(child.env).toEqual({ PUBSUB_EMULATOR_HOST: `127.0.0.1:${child.port}`, PUBSUB_PROJECT_ID: "walk" });
    const inProcess = await startInProcess({ clock: "manual", project: "walk" });
    started.push(inProcess);
    const [a, b] = [await walkThrough(child), await walkThrough(inProcess)];
    expect(a).toEqual(b);
    expect(a.errors[0]).toEqual(["EmulatorError", "NOT_FOUND"]);
  }, 60_000);

  test("host: the address clients use, as in process", async () => {
    for (const startOne of [lib.start, startInProcess]) {
      const emu = await startOne({ host: "localhost" });
      started.push(emu);
      expect(emu.host).toBe(`localhost:${emu.port}`);
      expect(emu.env.PUBSUB_EMULATOR_HOST).toBe(emu.host);
      expect((await emu.clock()).mode).toBe("system");
    }
  }, 30_000);

  test("a bad option rejects start() with the flag's own words", async () => {
    const err = await lib.start({ maxMemory: "1K" }).catch((e: Error) => e);
    expect(String(err)).toMatch(/--max-memory must be 0 or a size/);
  }, 30_000);

  test("PUBSUB_EMULATOR_BUN chooses the Bun; one that is not there is named in the error", async () => {
    const script = `process.env.PUBSUB_EMULATOR_BUN = "/nonexistent/bun";
      require(${JSON.stringify(LIB)}).start().then(() => process.exit(3), (e) => { console.log(e.message); process.exit(0); });`;
    const proc = Bun.spawn(["node", "-e", script], { stdout: "pipe", stderr: "inherit" });
    const timer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
    const out = await new Response(proc.stdout).text();
    clearTimeout(timer);
    expect(await proc.exited).toBe(0);
    expect(out).toContain("cannot run /nonexistent/bun (not found)");
  }, 30_000);

  test("stop() ends the child and closes its port", async () => {
    const emu = await lib.start();
    await emu.stop();
    await gone(emu.pid, 5000);
    expect(await refused(emu.port)).toBe(true);
    expect((await emu.clock().catch((e) => e)).code).toBe("FAILED_PRECONDITION");
  }, 30_000);

  test("a Node parent killed with SIGKILL leaves no emulator behind", async () => {
    const script = `const { start } = require(${JSON.stringify(LIB)});
      start().then((emu) => { console.log(emu.pid + " " + emu.port); setTimeout(() => {}, 60000); });`;
    const parent = Bun.spawn(["node", "-e", script], { stdout: "pipe", stderr: "inherit" });
    const timer = setTimeout(() => parent.kill("SIGKILL"), 30_000);
    try {
      const reader = parent.stdout.getReader();
      let line = "";
      while (!line.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`parent ended before printing: ${line}`);
        line += new TextDecoder().decode(value);
      }
      const [pid, port] = line.trim().split(" ").map(Number);
      expect(await refused(port)).toBe(false);
      parent.kill("SIGKILL");
      await parent.exited;
      await gone(pid, 10_000);
      expect(await refused(port)).toBe(true);
    } finally {
      clearTimeout(timer);
      parent.kill("SIGKILL");
    }
  }, 45_000);
});

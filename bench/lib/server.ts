// The server under test: a local child process (ours or the reference), or a remote
// --target. Resource readings come from /proc for a local child and from the emulator's
// `GET /metrics` endpoint (as JSON) for a target (memory reported as unknown if it has none).
import { existsSync, readFileSync, readdirSync, createWriteStream } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "../..");
const CLK_TCK = 100;

export interface ServerSample {
  t: number;                  // ms since epoch
  rssBytes: number | null;
  heapUsedBytes: number | null;
  cpuMicros: number | null;   // user + system, cumulative
  mainCpuMicros?: number | null; // the same for the main (JS) thread only, local child only
  fds: number | null;
}

export interface ServerHandle {
  target: string;             // host:port
  kind: "ours" | "reference" | "pstest" | "target";
  pid: number | null;
  cmd: string[] | null;
  sample(): Promise<ServerSample>;
  /** Exit code if the child died, else null. */
  exited(): number | null;
  peakRssBytes(): number | null; // VmHWM of the child (lifetime peak)
  stop(): Promise<void>;
}

async function fetchMetrics(target: string): Promise<any | null> {
  try {
    // /metrics answers Prometheus text by default; asking for JSON works on old and new builds.
    const r = await fetch(`http://${target}/metrics`, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(1000) });
    if (!r.ok) return null;
    const j = await r.json();
    return j && typeof j === "object" && "rssBytes" in j ? j : null;
  } catch { return null; }
}

function procStatus(pid: number): Record<string, string> | null {
  try {
    const out: Record<string, string> = {};
    for (const line of readFileSync(`/proc/${pid}/status`, "utf8").split("\n")) {
      const i = line.indexOf(":");
      if (i > 0) out[line.slice(0, i)] = line.slice(i + 1).trim();
    }
    return out;
  } catch { return null; }
}
const kb = (v: string | undefined) => (v ? parseInt(v, 10) * 1024 : null);

function procCpuMicros(pid: number, tid?: number): number | null {
  try {
    const s = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" "); // f[0] is field 3 (state)
    return ((parseInt(f[11]!, 10) + parseInt(f[12]!, 10)) * 1e6) / CLK_TCK; // utime, stime
  } catch { return null; }
}
function procFds(pid: number): number | null {
  try { return readdirSync(`/proc/${pid}/fd`).length; } catch { return null; }
}

export function remoteServer(target: string): ServerHandle {
  return {
    target, kind: "target", pid: null, cmd: null,
    async sample() {
      const m = await fetchMetrics(target);
      const cpu = m && m.cpuUserMicros != null ? m.cpuUserMicros + (m.cpuSystemMicros ?? 0) : null;
      return { t: Date.now(), rssBytes: m?.rssBytes ?? null, heapUsedBytes: m?.heapUsedBytes ?? null, cpuMicros: cpu, fds: m?.fds ?? null };
    },
    exited: () => null,
    peakRssBytes: () => null,
    stop: async () => {},
  };
}

export interface StartOptions {
  kind: "ours" | "reference" | "pstest"; smol: boolean; args?: string[]; logFile: string; timeoutMs?: number;
  /** Checkout whose src/main.ts (or bench/reference/server.ts) is started; default ROOT. Used by compare. */
  root?: string;
  /** Command prefix that ends by exec'ing its arguments (taskset, bench/lib/cgexec.sh), so the pid stays the server's. Used by sizing. */
  wrap?: string[];
}

/** Go's pstest (cloud.google.com/go/pubsub/v2/pstest) behind bench/pstest/main.go: $PSTEST_BIN, or built once into bench/results/. */
export function pstestBinary(): string {
  if (process.env.PSTEST_BIN) return process.env.PSTEST_BIN;
  const out = join(ROOT, "bench/results/pstest-server");
  if (existsSync(out)) return out;
  const r = Bun.spawnSync(["go", "build", "-o", out, "."], { cwd: join(ROOT, "bench/pstest"), stderr: "inherit", env: { ...process.env, GOFLAGS: "-mod=mod" } });
  if (r.exitCode !== 0) throw new Error("cannot build bench/pstest (needs go and the Go module proxy)");
  return out;
}

export async function startServer(o: StartOptions): Promise<ServerHandle> {
  const script = o.kind === "ours" ? "src/main.ts" : "bench/reference/server.ts";
  const entry = o.kind === "pstest" ? [pstestBinary()] : [process.execPath, ...(o.smol ? ["--smol"] : []), script];
  const cmd = [...(o.wrap ?? []), ...entry, "--host-port", "127.0.0.1:0", ...(o.args ?? [])];
  const child = Bun.spawn(cmd, { cwd: o.root ?? ROOT, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const log = createWriteStream(o.logFile);
  let exitCode: number | null = null;
  child.exited.then((c) => { exitCode = c; });

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not report its port within ${o.timeoutMs ?? 15000} ms (see ${o.logFile})`)), o.timeoutMs ?? 15000);
    let buf = "";
    let found = false;
    const pump = async (s: ReadableStream<Uint8Array>, watch: boolean) => {
      const dec = new TextDecoder();
      for await (const chunk of s) {
        log.write(chunk);
        if (!watch || found) continue;
        buf += dec.decode(chunk, { stream: true });
        const m = /Server started, listening on (\d+)/.exec(buf);
        if (m) { found = true; clearTimeout(timer); resolve(parseInt(m[1]!, 10)); }
      }
      if (watch && !found) { clearTimeout(timer); reject(new Error(`server exited before listening (code ${await child.exited}); see ${o.logFile}`)); }
    };
    pump(child.stdout, true);
    pump(child.stderr, false);
  });

  const target = `127.0.0.1:${port}`;
  // Heap figures only exist if the server has a /metrics endpoint; probe once.
  const hasMetrics = (await fetchMetrics(target)) !== null;
  const pid = child.pid;
  return {
    target, kind: o.kind, pid, cmd,
    async sample() {
      const st = procStatus(pid);
      const m = hasMetrics ? await fetchMetrics(target) : null;
      return { t: Date.now(), rssBytes: kb(st?.VmRSS), heapUsedBytes: m?.heapUsedBytes ?? null, cpuMicros: procCpuMicros(pid), mainCpuMicros: procCpuMicros(pid, pid), fds: procFds(pid) };
    },
    exited: () => exitCode,
    peakRssBytes: () => kb(procStatus(pid)?.VmHWM),
    async stop() {
      if (exitCode !== null) return;
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 3000);
      await child.exited;
      clearTimeout(t);
      log.end();
    },
  };
}

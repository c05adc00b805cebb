// Result rows, environment capture, and the JSON + text reports under bench/results/.
import { cpus, release, totalmem, platform, arch } from "node:os";
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Resources } from "./monitor.ts";
import type { LatencySummary } from "./stats.ts";
import { ROOT, type ServerHandle } from "./server.ts";

export interface Row {
  scenario: string;
  variant: string;
  config: Record<string, unknown>;
  messages: number;               // messages counted for the rate (unique)
  seconds: number;                // measured interval
  msgsPerSec: number | null;
  mbPerSec: number | null;        // payload MB/s (10^6 bytes)
  latencyKind: "publish" | "e2e" | "connect+publish" | "none";
  latency: LatencySummary;
  lost: number | null;
  duplicates: number | null;
  errors: number;
  errorKinds: Record<string, number>;
  resources: Omit<Resources, "samples">;
  /** Server CPU time per message (µs): server CPU % / msg/s. Robust when the client is the bottleneck. */
  serverMicrosPerMsg: number | null;
  pass: boolean | null;
  criterion: string | null;
  extra: Record<string, unknown>;
}

export interface Ctx {
  server: ServerHandle;
  target: string;
  quick: boolean;
  duration: number | null;        // --duration seconds, if given
  ceiling: number | null;         // --ceiling msg/s, if given (else measured)
  repeat: number | null;          // --repeat N, if given
  log: (msg: string) => void;
  /** The server's --data-dir when the store is data-dir (soak reads its WAL size). */
  dataDir?: string | null;
}

export function row(r: Partial<Row> & Pick<Row, "scenario" | "variant" | "resources">): Row {
  const seconds = r.seconds ?? r.resources.wallS;
  const msgs = r.messages ?? 0;
  return {
    config: {}, messages: msgs, seconds,
    msgsPerSec: seconds > 0 ? msgs / seconds : null, mbPerSec: null,
    latencyKind: "none", latency: { n: 0, p50: null, p95: null, p99: null, max: null, mean: null },
    lost: null, duplicates: null, errors: 0, errorKinds: {}, pass: null, criterion: null, extra: {},
    serverMicrosPerMsg: null,
    ...r,
  };
}

/** Fills derived fields; call once a row is final. */
export function finish(r: Row): Row {
  const cpu = r.resources.server.cpuPct, rate = r.msgsPerSec;
  r.serverMicrosPerMsg = cpu != null && rate ? (cpu / 100 / rate) * 1e6 : null;
  return r;
}

function sh(cmd: string[]): string {
  try {
    const p = Bun.spawnSync(cmd, { cwd: ROOT, stderr: "ignore" });
    return p.exitCode === 0 ? p.stdout.toString().trim() : "";
  } catch { return ""; }
}

export function environment(server: ServerHandle, args: string[]) {
  const cpuinfo = (() => { try { return readFileSync("/proc/cpuinfo", "utf8"); } catch { return ""; } })();
  const model = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? "unknown";
  const status = (() => { try { return readFileSync("/proc/self/status", "utf8"); } catch { return ""; } })();
  const dirty = sh(["git", "status", "--porcelain", "--untracked-files=no"]) !== "";
  return {
    date: new Date().toISOString(),
    git: { commit: sh(["git", "rev-parse", "HEAD"]) || "unknown", dirty },
    bun: { version: Bun.version, revision: Bun.revision, clientFlags: process.execArgv },
    server: { kind: server.kind, target: server.target, cmd: server.cmd },
    cpu: { model, cores: cpus().length, allowed: /Cpus_allowed_list:\s*(.*)/.exec(status)?.[1] ?? null },
    memTotalBytes: totalmem(),
    os: `${platform()} ${arch()} ${release()}`,
    args,
  };
}

const f = (v: number | null | undefined, d = 1) => (v == null || !Number.isFinite(v) ? "-" : v.toFixed(d));
const mb = (v: number | null | undefined) => (v == null ? "?" : (v / 2 ** 20).toFixed(0));
const big = (v: number | null) => (v == null ? "-" : v >= 10000 ? Math.round(v).toLocaleString("en-US") : v.toFixed(v >= 100 ? 0 : 1));

export function table(rows: Row[]): string {
  const head = ["scenario", "variant", "msgs", "msg/s", "MB/s", "lat", "p50 ms", "p95 ms", "p99 ms", "lost", "dup", "err",
    "srv RSS MB", "srv heap MB", "srv CPU%", "srv µs/msg", "cli CPU%", "other CPU%", "pass"];
  const body = rows.map((r) => [
    r.scenario, r.variant, String(r.messages), big(r.msgsPerSec), f(r.mbPerSec), r.latencyKind === "none" ? "" : r.latencyKind,
    f(r.latency.p50, 2), f(r.latency.p95, 2), f(r.latency.p99, 2),
    r.lost == null ? "-" : String(r.lost), r.duplicates == null ? "-" : String(r.duplicates), String(r.errors),
    mb(r.resources.server.peakRssBytes), mb(r.resources.server.peakHeapBytes), f(r.resources.server.cpuPct, 0), f(r.serverMicrosPerMsg, 1), f(r.resources.client.cpuPct, 0), f(r.resources.machine?.otherPct, 0),
    r.pass == null ? "" : r.pass ? "yes" : "NO",
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 || i === 5 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join("  ");
  return [line(head), line(w.map((n) => "-".repeat(n))), ...body.map(line)].join("\n");
}

export function envText(env: ReturnType<typeof environment>): string {
  return [
    `date ${env.date}  commit ${env.git.commit.slice(0, 12)}${env.git.dirty ? " (dirty)" : ""}`,
    `bun ${env.bun.version} (${env.bun.revision.slice(0, 9)})  server ${env.server.kind} ${env.server.cmd ? env.server.cmd.slice(1).join(" ") : env.server.target}`,
    `cpu ${env.cpu.model} x${env.cpu.cores} (allowed ${env.cpu.allowed})  mem ${(env.memTotalBytes / 2 ** 30).toFixed(0)} GiB  ${env.os}`,
  ].join("\n");
}

export function notes(rows: Row[]): string {
  const out: string[] = [];
  for (const r of rows) {
    const bits: string[] = [];
    if (r.criterion) bits.push(`criterion: ${r.criterion}`);
    if (Object.keys(r.errorKinds).length) bits.push(`errors: ${JSON.stringify(r.errorKinds)}`);
    const blocks: string[] = [];
    for (const [k, v] of Object.entries(r.extra)) {
      if (typeof v === "string" && v.includes("\n")) blocks.push(v.replace(/^/gm, "    "));
      else if (v != null && typeof v !== "object") bits.push(`${k}=${typeof v === "number" ? +v.toFixed(3) : v}`);
    }
    if (bits.length) out.push(`  ${r.scenario}/${r.variant}: ${bits.join("; ")}`);
    out.push(...blocks);
  }
  return out.join("\n");
}

export function writeReport(dir: string, stem: string, env: object, rows: Row[], text: string, extra: object = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${stem}.json`), JSON.stringify({ env, rows, ...extra }, null, 2));
  writeFileSync(join(dir, `${stem}.txt`), text + "\n");
}

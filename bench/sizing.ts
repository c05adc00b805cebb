// Sizing mode — the saturation scenario under CPU and memory limits, for a Cloud Run sizing
// decision (how many msg/s at what p99 does 1 / 2 vCPU and 256 MB / 512 MB / 1 GB give?).
//
//   bun bench/sizing.ts [--cpus 1,2] [--mem 256M,512M,1G] [--quick] [--duration s] [--matrix]
//                       [--client auto|shared] [--smol] [--no-backlog] [--lean]
//   bun run bench sizing …
//
// Configurations (default): every --cpus value without a memory cap, then every --mem cap at
// the first --cpus value (--matrix: every cpus × (no cap + every cap)). A capped run is given
// the ceiling measured by the uncapped run of the same CPU count (--ceiling), so both step
// through the same offered loads. Each configuration is one `bun bench/run.ts saturation`
// child (fresh client process, fresh server), whose JSON is read back.
//
// CPU: the server is pinned with `taskset -c 0` (1 CPU), `-c 0-1` (2 CPUs), …; a fractional
// value (0.5) pins to CPU 0 and adds a CFS quota (cgroup cpu controller), as Cloud Run's
// fractional vCPUs are quotas. The client (the bench process, one busy JS thread) is pinned to
// the CPUs the server does not have, so it neither steals from the server nor is starved by
// it — on Cloud Run the clients are elsewhere. When the server gets every CPU of the host
// (2 of 2 here) there is nothing left to pin to: the client shares them, and that row is a
// lower bound (client and server compete). --client shared never pins the client.
// Memory: see lib/limits.ts for the cap methods; the first that works is used and named.
// --lean: after each configuration's saturation run, the same limits drive the server from the
// lean load generator (bench/lean/load.ts: pre-encoded requests, 2 worker processes, batches of
// 1,000), closed loop, e2e and publish: the server's own capacity under the cap, since that
// client's CPU per message is about half the server's (the official client's is more than the
// server's, so the saturation table above measures the client as much as the server).
// Backlog (after the saturation runs, --no-backlog skips it): under each memory cap, how many
// unacknowledged 1 KB messages the server holds before the kernel kills it — what sizes
// memory, since throughput barely moves RSS.
import { join } from "node:path";
import { readFileSync, mkdirSync } from "node:fs";
import { cpus as osCpus } from "node:os";
import { ROOT, startServer } from "./lib/server.ts";
import { Flow, uniqueName, withTimeout } from "./lib/flow.ts";
import { sleep } from "./lib/stats.ts";
import { payloadFn } from "./lib/payload.ts";
import { environment, envText } from "./lib/report.ts";
import { CGEXEC, cpuList, detectMemMethod, makeCgroup, memoryStats, parseBytes, removeCgroup, setCpuQuota, setMemoryMax, type Cgroup, type MemMethod, type MemoryStats } from "./lib/limits.ts";
import { writeFileSync } from "node:fs";
import { run as leanRun, type LeanResult } from "./lean/load.ts";
import { waitForQuiet } from "./lib/monitor.ts";

interface Opts { cpus: number[]; mems: string[]; quick: boolean; duration: number | null; matrix: boolean; client: "auto" | "shared"; smol: boolean; backlog: boolean; lean: boolean }

function usage(msg?: string): never {
  if (msg) console.error(msg);
  console.error("usage: bun bench/sizing.ts [--cpus 1,2] [--mem 256M,512M,1G] [--quick] [--duration s] [--matrix] [--client auto|shared] [--smol] [--no-backlog] [--lean]");
  process.exit(2);
}

function parse(argv: string[]): Opts {
  const n = osCpus().length;
  const o: Opts = { cpus: [1, Math.min(2, n)].filter((v, i, a) => a.indexOf(v) === i), mems: ["256M", "512M", "1G"], quick: false, duration: null, matrix: false, client: "auto", smol: false, backlog: true, lean: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--cpus") {
      o.cpus = (argv[++i] ?? "").split(",").map(Number);
      if (!o.cpus.length || o.cpus.some((c) => !(c > 0) || c > n || (c > 1 && !Number.isInteger(c)))) usage(`--cpus: integers 1…${n}, or a fraction below 1`);
    } else if (a === "--mem") {
      o.mems = (argv[++i] ?? "").split(",").filter(Boolean);
      if (o.mems.some((m) => m !== "none" && !parseBytes(m))) usage("--mem: sizes like 256M,512M,1G (or none)");
    } else if (a === "--quick") o.quick = true;
    else if (a === "--matrix") o.matrix = true;
    else if (a === "--smol") o.smol = true;
    else if (a === "--no-backlog") o.backlog = false;
    else if (a === "--lean") o.lean = true;
    else if (a === "--duration") { o.duration = Number(argv[++i]); if (!(o.duration > 0)) usage("--duration needs seconds"); }
    else if (a === "--client") { const v = argv[++i]; if (v !== "auto" && v !== "shared") usage("--client auto|shared"); o.client = v; }
    else if (a === "-h" || a === "--help") usage();
    else usage(`unknown argument ${a}`);
  }
  return o;
}

interface Config { cpus: number; mem: string | null; label: string }

export interface SizingRow {
  label: string; cpus: number; memCap: string | null; memMethod: MemMethod | null;
  serverCpus: string; cpuQuota: number | null; clientCpus: string;
  ceiling: number | null; ceilingGiven: boolean;
  saturationPoint: number | null; note: string | null;
  steps: { variant: string; offered: number; achieved: number | null; p99: number | null; serverCpuPct: number | null; mainThreadCpuPct: number | null; usPerMsg: number | null; otherCpuPct: number | null }[];
  p99At50: number | null; p99AtPoint: number | null; cpuPctAtPoint: number | null; mainPctAtPoint: number | null; usPerMsgAtPoint: number | null;
  /** min(cpus × 10⁶ / server µs per msg, 10⁶ / JS-thread µs per msg): the rate at which the server, not the client, would saturate. */
  serverBoundEstimate: number | null; maxOtherCpuPct: number | null;
  peakRssMB: number | null; cgroup: MemoryStats | null; lost: number | null;
  exitCode: number | null; failed: string | null; seconds: number;
}

function stamp() { return new Date().toISOString().replace(/[:]/g, "").replace(/\..*/, ""); }

interface Limits { serverCpus: string; clientCpus: string; quota: number | null; cgroups: Cgroup[]; wrap: string[]; clientWrap: string[]; smol: boolean; failed: string | null }

/** Server wrapper (cgroups, taskset) and client pinning for a configuration; remove l.cgroups afterwards. */
function setupLimits(c: Config, o: Opts, method: MemMethod, phase: string): Limits {
  const n = osCpus().length;
  const whole = Math.max(1, Math.ceil(c.cpus));
  const serverCpus = cpuList(0, whole);
  const clientCpus = o.client === "auto" && whole < n ? cpuList(whole, n - whole) : "shared";
  const quota = c.cpus < 1 ? c.cpus : null;
  const cgroups: Cgroup[] = [];
  const wrap: string[] = [];
  const clientWrap: string[] = ["setsid"]; // own process group: a timeout kills the server too
  let smol = o.smol;
  let failed: string | null = null;
  try {
    const tag = `bench-sizing-${process.pid}-${phase}-${c.label.replace(/[^A-Za-z0-9]/g, "")}`;
    if (quota != null) {
      if (method === "systemd") wrap.push("systemd-run", "--scope", "-q", "-p", `CPUQuota=${Math.round(quota * 100)}%`, "--");
      else {
        const cg = makeCgroup("cpu", tag + "-cpu");
        if (!cg) throw new Error("a fractional CPU needs a cgroup cpu controller (none writable here)");
        setCpuQuota(cg, quota);
        cgroups.push(cg);
      }
    }
    if (c.mem) {
      const bytes = parseBytes(c.mem)!;
      if (method === "systemd") wrap.push("systemd-run", "--scope", "-q", "-p", `MemoryMax=${bytes}`, "-p", "MemorySwapMax=0", "--");
      else if (method === "cgroup") {
        const cg = makeCgroup("memory", tag + "-mem")!;
        setMemoryMax(cg, bytes);
        cgroups.push(cg);
      } else if (method === "prlimit") wrap.push("prlimit", `--as=${bytes}`, "--");
      else smol = true;
    }
    if (cgroups.length) wrap.push(CGEXEC, cgroups.map((g) => g.dir).join(":"));
    wrap.push("taskset", "-c", serverCpus);
    if (clientCpus !== "shared") clientWrap.push("taskset", "-c", clientCpus);
  } catch (e: any) { failed = String(e?.message ?? e); }
  return { serverCpus, clientCpus, quota, cgroups, wrap, clientWrap, smol, failed };
}

async function runConfig(c: Config, o: Opts, method: MemMethod, ceiling: number | null, stem: string, dir: string): Promise<SizingRow> {
  let { serverCpus, clientCpus, quota, cgroups, wrap, clientWrap, smol, failed } = setupLimits(c, o, method, "sat");
  const out = `${stem}.${c.label.replace(/[^A-Za-z0-9.]+/g, "_")}`;
  const args = ["bench/run.ts", "saturation", "--out", out, "--server-wrap", wrap.join(" "),
    ...(o.quick ? ["--quick"] : []), ...(o.duration ? ["--duration", String(o.duration)] : []),
    ...(ceiling ? ["--ceiling", String(ceiling)] : []), ...(smol ? ["--smol"] : [])];
  const t0 = performance.now();
  let exitCode: number | null = null;
  if (!failed) {
    console.log(`\n== ${c.label}: server on CPU ${serverCpus}${quota != null ? ` (quota ${quota})` : ""}${c.mem ? `, memory cap ${c.mem} (${method})` : ""}; client ${clientCpus === "shared" ? "unpinned (shares the server's CPUs)" : `on CPU ${clientCpus}`}${ceiling ? `; ceiling ${ceiling}/s given` : ""}`);
    const child = Bun.spawn([...clientWrap, process.execPath, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const budget = (o.quick ? 240_000 : 900_000) + (o.duration ?? 0) * 12_000;
    const timer = setTimeout(() => { try { process.kill(-child.pid, "SIGKILL"); } catch {} }, budget);
    const pump = async (s: ReadableStream<Uint8Array>, err: boolean) => {
      let buf = "";
      const dec = new TextDecoder();
      for await (const chunk of s) {
        buf += dec.decode(chunk, { stream: true });
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, i); buf = buf.slice(i + 1);
          // Only the scenario's progress lines; the child's final tables are re-tabulated here.
          if (/^\s+(saturation \d|measuring|ceiling|inflection|no inflection|host busy|cannot|FAILED|server exited)/.test(line) || err) (err ? console.error : console.log)(`  ${line.trim()}`);
        }
      }
    };
    await Promise.all([pump(child.stdout, false), pump(child.stderr, true), child.exited]);
    clearTimeout(timer);
    exitCode = child.exitCode;
  }
  const cg = cgroups.find((g) => g.dir.endsWith("-mem")) ?? null;
  const cgStats = cg ? memoryStats(cg) : null;
  for (const g of cgroups) removeCgroup(g);

  const r: SizingRow = { label: c.label, cpus: c.cpus, memCap: c.mem, memMethod: c.mem ? method : null, serverCpus, cpuQuota: quota, clientCpus,
    ceiling: ceiling, ceilingGiven: ceiling != null, saturationPoint: null, note: null, steps: [], p99At50: null, p99AtPoint: null, cpuPctAtPoint: null, mainPctAtPoint: null,
    usPerMsgAtPoint: null, serverBoundEstimate: null, maxOtherCpuPct: null, peakRssMB: null, cgroup: cgStats, lost: null, exitCode, failed, seconds: (performance.now() - t0) / 1000 };
  if (failed) return r;
  let json: any;
  try { json = JSON.parse(readFileSync(join(dir, `${out}.json`), "utf8")); }
  catch { r.failed = `no report from the bench child (exit ${exitCode})`; return r; }
  const rows: any[] = json.rows ?? [];
  r.ceiling = json.ceiling ?? ceiling;
  const fails = rows.filter((x) => x.variant === "FAILED");
  if (fails.length) r.failed = fails.map((x) => x.criterion).join("; ");
  if (cgStats?.oomKills) r.failed = `OOM-killed (${cgStats.oomKills}×)${r.failed ? `; ${r.failed}` : ""}`;
  const sat = rows.filter((x) => x.scenario === "saturation" && x.variant !== "FAILED");
  r.steps = sat.map((x) => ({ variant: x.variant, offered: x.extra?.offered, achieved: x.msgsPerSec, p99: x.latency?.p99 ?? null,
    serverCpuPct: x.resources?.server?.cpuPct ?? null, mainThreadCpuPct: x.resources?.server?.mainThreadCpuPct ?? null,
    usPerMsg: x.serverMicrosPerMsg, otherCpuPct: x.resources?.machine?.otherPct ?? null }));
  r.saturationPoint = sat[0]?.extra?.saturationPoint ?? null;
  r.note = sat[0]?.extra?.saturationNote ?? null;
  r.p99At50 = r.steps[0]?.p99 ?? null;
  // The saturation point's step; without an inflection, the highest step that kept up.
  const at = r.steps.find((s) => s.offered === r.saturationPoint)
    ?? [...r.steps].reverse().find((s) => s.achieved != null && s.achieved >= 0.95 * s.offered) ?? null;
  r.p99AtPoint = r.saturationPoint != null ? at?.p99 ?? null : null;
  r.cpuPctAtPoint = at?.serverCpuPct ?? null;
  r.mainPctAtPoint = at?.mainThreadCpuPct ?? null;
  r.usPerMsgAtPoint = at?.usPerMsg ?? null;
  if (at?.achieved && at.serverCpuPct) {
    const total = (c.cpus * 100 / at.serverCpuPct) * at.achieved;
    const main = at.mainThreadCpuPct ? (100 / at.mainThreadCpuPct) * at.achieved : Infinity;
    r.serverBoundEstimate = Math.min(total, main);
  }
  const other = r.steps.map((s) => s.otherCpuPct).filter((v): v is number => v != null);
  r.maxOtherCpuPct = other.length ? Math.max(...other) : null;
  const rss = rows.map((x) => x.extra?.serverLifetimePeakRssMB ?? (x.resources?.server?.peakRssBytes ?? 0) / 2 ** 20).filter((v: number) => v > 0);
  r.peakRssMB = rss.length ? Math.max(...rss) : null;
  r.lost = sat.length ? (sat[sat.length - 1].lost ?? null) : null;
  if (!sat.length && !r.failed) r.failed = `no saturation rows (exit ${exitCode})`;
  return r;
}

// ------------------------------------------------------------------ backlog under a memory cap

export interface BacklogRow {
  label: string; memCap: string | null; memMethod: MemMethod | null;
  held: number; heldPayloadMB: number; killed: boolean; stoppedBy: string;
  rssStartMB: number | null; rssPeakMB: number | null; bytesPerMsg: number | null;
  cgroup: MemoryStats | null; publishRate: number | null; seconds: number; failed: string | null;
}

/**
 * How many unacknowledged 1 KB messages the server holds under the cap: one subscription with
 * no subscriber retains everything; publish closed loop (as firehose) until the server is
 * OOM-killed, twice the cap in payload was accepted (uncapped: 1 GiB), or the time budget ends.
 * bytes/msg = least-squares slope of server RSS over messages held (second half of the fill).
 */
async function backlogProbe(c: Config, o: Opts, method: MemMethod, stem: string, dir: string): Promise<BacklogRow> {
  const l = setupLimits(c, o, method, "bl");
  const cap = c.mem ? parseBytes(c.mem)! : null;
  const limit = cap ? 2 * cap : 2 ** 30;
  const budget = o.quick ? 30_000 : 120_000;
  const r: BacklogRow = { label: c.label, memCap: c.mem, memMethod: c.mem ? method : null, held: 0, heldPayloadMB: 0, killed: false, stoppedBy: "",
    rssStartMB: null, rssPeakMB: null, bytesPerMsg: null, cgroup: null, publishRate: null, seconds: 0, failed: l.failed };
  const t0 = performance.now();
  if (!l.failed) {
    console.log(`
== backlog ${c.label}: server on CPU ${l.serverCpus}${c.mem ? `, memory cap ${c.mem} (${method})` : ""}; 1 KB messages held by a subscription without subscribers`);
    let server: Awaited<ReturnType<typeof startServer>> | null = null;
    let flow: Flow | null = null;
    try {
      server = await startServer({ kind: "ours", smol: l.smol, wrap: l.wrap, logFile: join(dir, `${stem}.${c.label}.backlog.server.log`) });
      flow = await Flow.create({ target: server.target, name: uniqueName("bl"), subs: 0 });
      await withTimeout(flow.pubClient.createSubscription(flow.topic.name, `${flow.topic.name.split("/").pop()}-held`), 15000, "createSubscription");
      const s0 = await server.sample();
      r.rssStartMB = s0.rssBytes != null ? s0.rssBytes / 2 ** 20 : null;
      const pts: [number, number][] = [];
      const pay = payloadFn("1KB");
      const tFill = performance.now();
      for (;;) {
        if (server.exited() !== null) { r.stoppedBy = "server killed"; break; }
        if (flow.ackedCount * 1024 >= limit) { r.stoppedBy = `${(limit / 2 ** 20).toFixed(0)} MB payload accepted`; break; }
        if (performance.now() - t0 > budget) { r.stoppedBy = `${budget / 1000} s budget`; break; }
        await flow.closedLoop({ ms: 250, window: 300, windowBytes: 2 * 2 ** 20, payload: pay });
        const sm = await server.sample();
        if (sm.rssBytes != null) pts.push([flow.ackedCount, sm.rssBytes]);
      }
      r.publishRate = flow.ackedCount / ((performance.now() - tFill) / 1000);
      await sleep(500);
      r.killed = server.exited() !== null;
      if (r.killed) r.stoppedBy = `server killed (exit ${server.exited()})`;
      r.held = flow.ackedCount;
      r.heldPayloadMB = (r.held * 1024) / 2 ** 20;
      r.rssPeakMB = server.peakRssBytes() != null ? server.peakRssBytes()! / 2 ** 20 : Math.max(0, ...pts.map((p) => p[1] / 2 ** 20)) || null;
      const half = pts.slice(Math.floor(pts.length / 2));
      if (half.length >= 3) {
        const mx = half.reduce((a, p) => a + p[0], 0) / half.length, my = half.reduce((a, p) => a + p[1], 0) / half.length;
        const sxx = half.reduce((a, p) => a + (p[0] - mx) ** 2, 0), sxy = half.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
        r.bytesPerMsg = sxx > 0 ? sxy / sxx : null;
      }
      console.log(`  held ${r.held.toLocaleString("en-US")} messages (${r.heldPayloadMB.toFixed(0)} MB payload), stopped by: ${r.stoppedBy}; RSS ${r.rssStartMB?.toFixed(0)} → ${r.rssPeakMB?.toFixed(0)} MB${r.bytesPerMsg ? `, ≈ ${r.bytesPerMsg.toFixed(0)} B/msg` : ""}`);
    } catch (e: any) {
      r.failed = String(e?.message ?? e);
      if (server?.exited() != null) { r.killed = true; r.stoppedBy = `server killed (exit ${server.exited()})`; r.failed = null; r.held = flow?.ackedCount ?? 0; r.heldPayloadMB = (r.held * 1024) / 2 ** 20; }
    } finally {
      if (flow) await withTimeout(flow.close(), 20_000, "close").catch(() => {});
      if (server) await server.stop();
    }
  }
  const cg = l.cgroups.find((g) => g.dir.endsWith("-mem"));
  r.cgroup = cg ? memoryStats(cg) : null;
  if (r.cgroup?.oomKills) r.killed = true;
  for (const g of l.cgroups) removeCgroup(g);
  r.seconds = (performance.now() - t0) / 1000;
  return r;
}

export function backlogTable(rows: BacklogRow[]): string {
  const head = ["config", "mem cap", "1 KB msgs held", "payload MB", "outcome", "RSS start MB", "RSS peak MB", "RSS B/msg", "cgroup peak MB", "OOM kills", "publish msg/s"];
  const body = rows.map((r) => [r.label, r.memCap ?? "none", n0(r.held), n0(r.heldPayloadMB), r.failed ? `FAILED: ${r.failed}`.slice(0, 60) : r.stoppedBy,
    n1(r.rssStartMB), n1(r.rssPeakMB), n0(r.bytesPerMsg), r.cgroup?.peakBytes != null ? n1(r.cgroup.peakBytes / 2 ** 20) : "-",
    r.cgroup ? String(r.cgroup.oomKills ?? 0) : "-", n0(r.publishRate)]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i < 2 || i === 4 ? v.padEnd(w[i]!) : v.padStart(w[i]!))).join("  ").trimEnd();
  return [line(head), line(w.map((x) => "-".repeat(x))), ...body.map(line)].join("\n");
}

const n0 = (v: number | null | undefined) => (v == null || !Number.isFinite(v) ? "-" : Math.round(v).toLocaleString("en-US"));
const n1 = (v: number | null | undefined) => (v == null || !Number.isFinite(v) ? "-" : v >= 100 ? v.toFixed(0) : v.toFixed(1));

export function sizingTable(rows: SizingRow[]): string {
  const head = ["server CPUs", "mem cap", "client CPU", "ceiling msg/s", "sat. point msg/s", "p99 @50% ms", "p99 @sat ms", "srv CPU% @sat", "JS thread %", "srv µs/msg", "server-bound est. msg/s", "peak RSS MB", "cgroup peak MB", "OOM", "other CPU%", "result"];
  const body = rows.map((r) => [
    `${r.cpus}${r.cpuQuota != null ? " (quota)" : ""}`, r.memCap ? `${r.memCap}${r.memMethod !== "cgroup" ? ` (${r.memMethod})` : ""}` : "none", r.clientCpus,
    `${n0(r.ceiling)}${r.ceilingGiven ? " (given)" : ""}`, n0(r.saturationPoint), n1(r.p99At50), n1(r.p99AtPoint), n1(r.cpuPctAtPoint), n1(r.mainPctAtPoint), n1(r.usPerMsgAtPoint),
    n0(r.serverBoundEstimate), n1(r.peakRssMB), r.cgroup?.peakBytes != null ? n1(r.cgroup.peakBytes / 2 ** 20) : "-", r.cgroup ? String(r.cgroup.oomKills ?? 0) : "-",
    r.maxOtherCpuPct == null ? "-" : `${n1(r.maxOtherCpuPct)}${r.maxOtherCpuPct >= 25 ? " !" : ""}`,
    r.failed ? `FAILED: ${r.failed}`.slice(0, 80) : r.saturationPoint == null ? "no inflection" : "ok",
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i < 3 || i === head.length - 1 ? v.padEnd(w[i]!) : v.padStart(w[i]!))).join("  ").trimEnd();
  return [line(head), line(w.map((x) => "-".repeat(x))), ...body.map(line)].join("\n");
}

interface LeanRow { label: string; clientCpus: string; e2e: LeanResult | null; publish: LeanResult | null; failed: string | null }

/** Closed-loop capacity under the configuration's limits, from the lean generator (e2e, then publish). */
async function leanCapacity(c: Config, o: Opts, method: MemMethod): Promise<LeanRow> {
  const l = setupLimits(c, o, method, "lean");
  const row: LeanRow = { label: c.label, clientCpus: l.clientCpus, e2e: null, publish: null, failed: l.failed };
  try {
    if (!l.failed) {
      for (const mode of ["e2e", "publish"] as const) {
        await waitForQuiet(o.quick ? 10_000 : 30_000);
        row[mode] = await leanRun({ mode, server: "ours", procs: 2, duration: o.duration ?? (o.quick ? 4 : 10), warmup: 1, batch: 1000, bytes: 1024, inflight: 4,
          json: false, serverWrap: l.wrap, clientWrap: l.clientWrap.filter((w) => w !== "setsid") });
      }
    }
  } catch (e: any) { row.failed = String(e?.message ?? e); }
  for (const g of l.cgroups) removeCgroup(g);
  return row;
}

export function leanTable(rows: LeanRow[]): string {
  const f = (v: number | null | undefined, d = 1) => (v == null ? "?" : v.toFixed(d));
  const head = ["config", "client CPUs", "e2e msg/s", "srv µs/msg", "srv CPU%", "client/server", "publish msg/s", "srv µs/msg", "srv CPU%", "client/server"];
  const body = rows.map((r) => r.failed ? [r.label, r.clientCpus, `FAILED: ${r.failed}`, "", "", "", "", "", "", ""] : [r.label, r.clientCpus,
    n0(r.e2e?.msgsPerSec ?? null), f(r.e2e?.serverUsPerMsg), f(r.e2e?.serverCpuPct, 0), r.e2e?.serverUsPerMsg && r.e2e.clientUsPerMsg ? f(r.e2e.clientUsPerMsg / r.e2e.serverUsPerMsg, 2) : "?",
    n0(r.publish?.msgsPerSec ?? null), f(r.publish?.serverUsPerMsg), f(r.publish?.serverCpuPct, 0), r.publish?.serverUsPerMsg && r.publish.clientUsPerMsg ? f(r.publish.clientUsPerMsg / r.publish.serverUsPerMsg, 2) : "?"]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  return [head, w.map((x) => "-".repeat(x)), ...body].map((r) => (r as string[]).map((c, i) => c.padEnd(w[i]!)).join("  ")).join("\n");
}

export async function main(argv: string[]) {
  const o = parse(argv);
  const t0 = performance.now();
  const dir = join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const stem = `${stamp()}-sizing${o.quick ? "-quick" : ""}`;
  const mems = o.mems.filter((m) => m !== "none");
  const method: MemMethod = mems.length ? detectMemMethod() : "none";
  console.log(`== sizing: cpus ${o.cpus.join(",")}; memory caps ${mems.join(",") || "none"} via ${method}${method === "none" && mems.length ? " (no cap possible: --smol, RSS vs cap reported)" : ""}; ${o.quick ? "quick" : "full"}`);

  const configs: Config[] = [];
  for (const c of o.cpus) configs.push({ cpus: c, mem: null, label: `${c}cpu` });
  for (const c of o.matrix ? o.cpus : [o.cpus[0]!]) for (const m of mems) configs.push({ cpus: c, mem: m, label: `${c}cpu-${m}` });

  const results: SizingRow[] = [];
  for (const c of configs) {
    const given = c.mem ? results.find((r) => r.cpus === c.cpus && !r.memCap && !r.failed)?.ceiling ?? null : null;
    results.push(await runConfig(c, o, method, given, stem, dir));
  }
  const lean: LeanRow[] = [];
  if (o.lean) for (const c of configs) lean.push(await leanCapacity(c, o, method));

  // Backlog: every memory cap (at the first CPU count), or, without caps, one uncapped run.
  const backlog: BacklogRow[] = [];
  if (o.backlog) {
    const bl = mems.length ? mems.map((m) => ({ cpus: o.cpus[0]!, mem: m, label: `${o.cpus[0]}cpu-${m}` })) : [{ cpus: o.cpus[0]!, mem: null, label: `${o.cpus[0]}cpu` }];
    for (const c of bl) backlog.push(await backlogProbe(c, o, method, stem, dir));
  }

  const env = environment({ kind: "ours", target: "", cmd: [process.execPath, "src/main.ts"] } as any, argv);
  const stepLines = results.flatMap((r) => [`  ${r.label}: ${r.note ?? r.failed ?? ""}`,
    ...r.steps.map((s) => `    ${s.variant.padEnd(16)} achieved ${n0(s.achieved).padStart(7)}/s  p99 ${n1(s.p99).padStart(7)} ms  srv CPU ${n1(s.serverCpuPct).padStart(4)} % (JS ${n1(s.mainThreadCpuPct).padStart(4)} %)  ${n1(s.usPerMsg).padStart(5)} µs/msg  other ${n1(s.otherCpuPct).padStart(4)} %`)]);
  const text = [
    `pubsub-emulator sizing — saturation scenario${o.quick ? " (quick)" : ""} under CPU pinning and memory caps (${method}), ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    envText(env), "", sizingTable(results), "",
    "ceiling = closed-loop throughput/tuned (given = from the uncapped run with the same CPUs); sat. point = last offered",
    "load before p99 turns exponential (scenarios/saturation.ts); srv CPU% in % of one core; peak RSS = server VmHWM;",
    "cgroup peak = the memory cgroup's max usage (RSS + page cache + kernel); client CPU = where the bench client ran.",
    "@sat = at the saturation point (no inflection: the highest step that kept up); JS thread % = the server's main thread;",
    "server-bound est. = min(CPUs × 10⁶ / srv µs/msg, 10⁶ / JS-thread µs/msg): where the server itself would saturate",
    "(an extrapolation; below it the client is the limit). other CPU% = max over steps of CPU used by other processes (! ≥ 25).",
    ...(lean.length ? ["", "lean client (bench/lean/load.ts: 2 worker processes × 4 calls × 1,000 pre-encoded 1 KB messages, closed loop) under the same limits —",
      "the server's capacity, not the official client's; client/server = the generator's CPU per message over the server's:", leanTable(lean)] : []),
    ...(backlog.length ? ["", "backlog — unacknowledged 1 KB messages a subscription without subscribers holds under the cap:", backlogTable(backlog),
      "held = publishes the server acknowledged; RSS B/msg = slope of server RSS over messages held (second half of the fill)."] : []),
    "", "steps:", ...stepLines,
  ].join("\n");
  console.log("\n" + text);
  writeFileSync(join(dir, `${stem}.json`), JSON.stringify({ env, method, options: o, results, lean, backlog }, null, 2));
  writeFileSync(join(dir, `${stem}.txt`), text + "\n");
  console.log(`\nwritten: bench/results/${stem}.{json,txt}`);
  process.exit(results.every((r) => r.failed) ? 3 : 0);
}

if (import.meta.main) await main(process.argv.slice(2));

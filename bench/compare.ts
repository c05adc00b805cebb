// bench compare — A/B of the server at a git ref (A) against the working tree (B).
//
//   bun bench/compare.ts <git-ref> [scenario…] [--rounds n] [--quick] [--duration s]
//                        [--budget s] [--quiet-wait s]
//   bun run bench compare <git-ref> …
//
// A is built in a detached git worktree (node_modules symlinked from this checkout when the
// lockfiles are identical, else `bun install --frozen-lockfile` there). The bench client is
// always this checkout's, so only the server differs. Each round runs every chosen metric
// once per side, A and B back to back, each run on a fresh server; the order alternates per
// round (AB, BA, AB, …) so neither side always goes first. Per metric and quantity it reports
// the median of each side, and B/A = the median of the per-round ratios B_i/A_i with their
// min–max (the noise it measured). Ratios are paired by round because the host drifts: the
// same server can be 30 % faster ten minutes later, and both sides of a round see the same host.
//
// Regression rule (exit 1): with at least 3 complete rounds, on throughput/tuned (or the first
// metric if throughput is not run), EVERY per-round ratio is past 10 % in the bad direction
// for msg/s (B_i/A_i < 0.90) or for server CPU per message (B_i/A_i > 1.10); or a B run lost or
// duplicated messages while no A run did. Everything else is reported, never gating.
// Exit 2: usage. Exit 3: the bench itself failed (worktree, install, a server that would not
// start, or no complete round).
import { join, resolve } from "node:path";
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { startServer, ROOT, type ServerHandle } from "./lib/server.ts";
import { environment, envText, finish, writeReport, type Ctx, type Row } from "./lib/report.ts";
import { median, sleep } from "./lib/stats.ts";
import { waitForQuiet } from "./lib/monitor.ts";
import { VARIANTS, type Variant } from "./lib/variants.ts";
import { SCENARIOS } from "./scenarios/index.ts";

export const THRESHOLD = 0.10;   // ±10 %: bench/README.md's regression band for throughput/tuned
export const MIN_ROUNDS = 3;     // fewer complete rounds: report only, never exit 1
const DEFAULT = ["throughput", "firehose", "pull"];
const ALIASES: Record<string, string> = { herd: "thundering-herd", "fan-out": "fanout" };

interface Opts { ref: string; scenarios: string[]; rounds: number; quick: boolean; duration: number | null; budget: number | null; quietWait: number | null }

function usage(msg?: string): never {
  if (msg) console.error(msg);
  console.error(`usage: bun bench/compare.ts <git-ref> [scenario…] [--rounds n] [--quick] [--duration s] [--budget s] [--quiet-wait s]
  default scenarios: ${DEFAULT.join(" ")} (throughput = the tuned variant, firehose = 1KB, pull = 1 loop;
  any other scenario runs whole and compares all its rows); rounds default 5 (quick 3);
  --budget s: start no round that would end past s seconds (at least one round runs);
  --quiet-wait s: wait at most s seconds for an idle host before each run (default 10, full 30)`);
  process.exit(2);
}

function parse(argv: string[]): Opts {
  const o: Opts = { ref: "", scenarios: [], rounds: 0, quick: false, duration: null, budget: null, quietWait: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--rounds") { o.rounds = Math.round(Number(argv[++i])); if (!(o.rounds >= 1 && o.rounds <= 50)) usage("--rounds is 1…50"); }
    else if (a === "--quick") o.quick = true;
    else if (a === "--duration") { o.duration = Number(argv[++i]); if (!(o.duration > 0)) usage("--duration needs seconds"); }
    else if (a === "--budget") { o.budget = Number(argv[++i]); if (!(o.budget > 0)) usage("--budget needs seconds"); }
    else if (a === "--quiet-wait") { o.quietWait = Number(argv[++i]); if (!(o.quietWait >= 0)) usage("--quiet-wait needs seconds"); }
    else if (a === "-h" || a === "--help") usage();
    else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else if (!o.ref) o.ref = a;
    else {
      const n = ALIASES[a] ?? a;
      if (!SCENARIOS[n]) usage(`unknown scenario ${a}`);
      o.scenarios.push(n);
    }
  }
  if (!o.ref) usage("missing <git-ref>");
  if (!o.scenarios.length) o.scenarios = DEFAULT;
  if (!o.rounds) o.rounds = o.quick ? 3 : 5;
  return o;
}

// ------------------------------------------------------------------ git worktree for A

function git(args: string[], cwd = ROOT) {
  const p = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  return { ok: p.exitCode === 0, out: p.stdout.toString().trim(), err: p.stderr.toString().trim() };
}

export interface Baseline { dir: string; commit: string; deps: string; cleanup(): void }

/** Detached worktree of `commit` with its dependencies installed; cleanup() is sync and idempotent. */
export function prepareBaseline(commit: string): Baseline {
  const base = mkdtempSync(join(tmpdir(), "pse-compare-"));
  const dir = join(base, "wt");
  let done = false;
  const cleanup = () => {
    if (done) return;
    done = true;
    try { if (lstatSync(join(dir, "node_modules")).isSymbolicLink()) unlinkSync(join(dir, "node_modules")); } catch {}
    const r = git(["worktree", "remove", "--force", dir]);
    if (!r.ok && existsSync(dir)) console.error(`  git worktree remove: ${r.err}`);
    try { rmSync(base, { recursive: true, force: true }); } catch {}
    git(["worktree", "prune"]);
  };
  try {
    const add = git(["worktree", "add", "--detach", dir, commit]);
    if (!add.ok) throw new Error(`git worktree add: ${add.err}`);
    const lock = (d: string) => { for (const f of ["bun.lock", "bun.lockb"]) { try { return f + ":" + readFileSync(join(d, f), "latin1"); } catch {} } return null; };
    const mine = lock(ROOT), theirs = lock(dir);
    let deps: string;
    if (mine != null && mine === theirs && existsSync(join(ROOT, "node_modules"))) {
      symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
      deps = "node_modules symlinked (identical lockfile)";
    } else {
      const t0 = performance.now();
      const p = Bun.spawnSync([process.execPath, "install", "--frozen-lockfile"], { cwd: dir, stdout: "pipe", stderr: "pipe", timeout: 300_000 });
      if (p.exitCode !== 0) throw new Error(`bun install --frozen-lockfile in the baseline failed (${p.exitCode}): ${p.stderr.toString().slice(-800)}`);
      deps = `bun install --frozen-lockfile (${((performance.now() - t0) / 1000).toFixed(0)} s; lockfile differs)`;
    }
    return { dir, commit, deps, cleanup };
  } catch (e) { cleanup(); throw e; }
}

// ------------------------------------------------------------------ statistics

export interface Quantity { key: string; label: string; better: "higher" | "lower"; get(r: Row): number | null; digits: number }
export const QUANTITIES: Quantity[] = [
  { key: "msgsPerSec", label: "msg/s", better: "higher", get: (r) => r.msgsPerSec, digits: 0 },
  { key: "p99Ms", label: "p99 ms", better: "lower", get: (r) => r.latency.p99, digits: 1 },
  { key: "serverMicrosPerMsg", label: "srv µs/msg", better: "lower", get: (r) => r.serverMicrosPerMsg, digits: 2 },
  { key: "peakRssMB", label: "peak RSS MB", better: "lower", get: (r) => (r.extra.serverLifetimePeakRssMB as number) ?? null, digits: 0 },
];
export const GATED = new Set(["msgsPerSec", "serverMicrosPerMsg"]);

export interface Summary {
  metric: string; quantity: string; label: string; better: "higher" | "lower"; gated: boolean;
  a: number[]; b: number[]; medianA: number | null; medianB: number | null;
  /** Median of the per-round ratios B_i/A_i (paired: robust to the host drifting between rounds). */
  ratio: number | null; roundRatios: number[]; minRatio: number | null; maxRatio: number | null;
  verdict: "worse" | "better" | "~" | "n/a";
}

/** a[i], b[i] from the same round (null = that run failed). */
export function summarize(metric: string, q: Quantity, a: (number | null)[], b: (number | null)[], gated: boolean): Summary {
  const pairs = a.map((x, i) => [x, b[i]] as const).filter(([x, y]) => x != null && y != null && x > 0 && Number.isFinite(x) && Number.isFinite(y!)) as [number, number][];
  const av = a.filter((x): x is number => x != null), bv = b.filter((x): x is number => x != null);
  const rr = pairs.map(([x, y]) => y / x);
  const mA = av.length ? median(av) : null, mB = bv.length ? median(bv) : null;
  const past = (r: number, dir: "worse" | "better") => ((q.better === "higher") === (dir === "worse") ? r < 1 - THRESHOLD : r > 1 + THRESHOLD);
  let verdict: Summary["verdict"] = "n/a";
  if (rr.length) verdict = rr.length >= MIN_ROUNDS && rr.every((r) => past(r, "worse")) ? "worse"
    : rr.length >= MIN_ROUNDS && rr.every((r) => past(r, "better")) ? "better" : "~";
  return { metric, quantity: q.key, label: q.label, better: q.better, gated, a: av, b: bv, medianA: mA, medianB: mB,
    ratio: rr.length ? median(rr) : null, roundRatios: rr,
    minRatio: rr.length ? Math.min(...rr) : null, maxRatio: rr.length ? Math.max(...rr) : null, verdict };
}

const pct = (r: number | null) => (r == null ? "-" : `${r >= 1 ? "+" : "−"}${Math.abs((r - 1) * 100).toFixed(1)} %`);
const num = (v: number | null, d: number) => (v == null ? "-" : v >= 10000 ? Math.round(v).toLocaleString("en-US") : v.toFixed(d));

export function summaryTable(s: Summary[], la: string, lb: string): string {
  const head = ["metric", "quantity", `A ${la}`, `B ${lb}`, "B/A", "per-round B/A (min … max)", "verdict"];
  const body = s.map((x, i) => [
    i > 0 && s[i - 1]!.metric === x.metric ? "" : x.metric, x.label + (x.gated ? " *" : ""),
    num(x.medianA, QUANTITIES.find((q) => q.key === x.quantity)!.digits), num(x.medianB, QUANTITIES.find((q) => q.key === x.quantity)!.digits),
    pct(x.ratio), x.minRatio == null ? "-" : `${pct(x.minRatio)} … ${pct(x.maxRatio)}`, x.verdict,
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i < 2 || i >= 5 ? v.padEnd(w[i]!) : v.padStart(w[i]!))).join("  ").trimEnd();
  return [line(head), line(w.map((n) => "-".repeat(n))), ...body.map(line)].join("\n");
}

// ------------------------------------------------------------------ runs

interface Run { round: number; side: "A" | "B"; metric: string; ok: boolean; error?: string; otherCpuPct: number | null; row: Row | null }

function stamp() { return new Date().toISOString().replace(/[:]/g, "").replace(/\..*/, ""); }

let current: ServerHandle | null = null;

/** One scenario (or focused variant) on a fresh server from `root`; rows keyed by scenario/variant. */
async function runOnce(name: string, root: string, o: Opts, logFile: string): Promise<Row[]> {
  const server = await startServer({ kind: "ours", smol: false, root, logFile });
  current = server;
  const ctx: Ctx = { server, target: server.target, quick: o.quick, duration: o.duration, ceiling: null, repeat: 1, log: () => {} };
  const budget = (o.quick ? 120_000 : 600_000) + (o.duration ?? 0) * 12_000;
  try {
    const v: Variant | undefined = VARIANTS[name];
    const work: Promise<Row[]> = v ? v.run(ctx).then((r) => [r]) : import(SCENARIOS[name]!).then((m) => m.run(ctx));
    const rows = await Promise.race([work, sleep(budget).then((): never => { throw new Error(`exceeded its ${budget / 1000} s budget`); })]);
    const hwm = server.peakRssBytes();
    for (const r of rows) { if (hwm != null) r.extra.serverLifetimePeakRssMB = hwm / 2 ** 20; finish(r); }
    const code = server.exited();
    if (code !== null) throw new Error(`server exited with code ${code}`);
    return rows;
  } finally { await server.stop(); current = null; }
}

export async function main(argv: string[]) {
  const o = parse(argv);
  const t0 = performance.now();
  const rev = git(["rev-parse", "--verify", "--quiet", `${o.ref}^{commit}`]);
  if (!rev.ok) usage(`not a commit: ${o.ref}`);
  const commitA = rev.out;
  const head = git(["rev-parse", "HEAD"]).out;
  const dirty = git(["status", "--porcelain", "--untracked-files=no"]).out !== "";
  const refName = /^[0-9a-f]{12,40}$/i.test(o.ref) ? o.ref.slice(0, 7) : o.ref;
  const la = refName === o.ref.slice(0, 7) && refName === commitA.slice(0, 7) ? commitA.slice(0, 7) : `${refName} (${commitA.slice(0, 7)})`;
  const lb = `working tree (${head.slice(0, 7)}${dirty ? "+dirty" : ""})`;
  const dir = join(ROOT, "bench/results");
  const stem = `${stamp()}-compare-${refName.replace(/[^A-Za-z0-9._-]+/g, "_")}${o.quick ? "-quick" : ""}`;
  const logs = join(dir, `${stem}.logs`);
  mkdirSync(logs, { recursive: true });

  console.log(`== bench compare: A = ${la}, B = ${lb}; ${o.rounds} rounds${o.quick ? ", quick" : ""}; ${o.scenarios.join(" ")}`);
  let baseline: Baseline;
  try { baseline = prepareBaseline(commitA); }
  catch (e: any) { console.error(`compare: cannot build the baseline: ${e.message}`); process.exit(3); }
  const bail = (sig: string, code: number) => {
    console.error(`\ncompare: ${sig}, cleaning up`);
    const s = current; current = null;
    (s ? s.stop() : Promise.resolve()).finally(() => { baseline.cleanup(); process.exit(code); });
  };
  process.once("SIGINT", () => bail("SIGINT", 130));
  process.once("SIGTERM", () => bail("SIGTERM", 143));
  console.log(`  baseline worktree ${baseline.dir}: ${baseline.deps}`);

  const runs: Run[] = [];
  const roots = { A: baseline.dir, B: ROOT };
  let env: ReturnType<typeof environment> | null = null;
  let roundsRun = 0, stoppedEarly = false;
  try {
    for (let round = 1; round <= o.rounds; round++) {
      const elapsed = (performance.now() - t0) / 1000;
      if (o.budget && round > 1 && elapsed + elapsed / (round - 1) > o.budget) {
        stoppedEarly = true;
        console.log(`  stopping after ${round - 1} round(s): another would end past the ${o.budget} s budget`);
        break;
      }
      roundsRun = round;
      const order: ("A" | "B")[] = round % 2 ? ["A", "B"] : ["B", "A"];
      for (const name of o.scenarios) {
        for (const side of order) {
          const busy = await waitForQuiet((o.quietWait ?? (o.quick ? 10 : 30)) * 1000);
          if (busy != null && busy >= 25) console.log(`  host busy (${busy.toFixed(0)} % CPU from other processes)`);
          try {
            const rows = await runOnce(name, resolve(roots[side]), o, join(logs, `${name}.r${round}${side}.server.log`));
            env ??= environment({ kind: "ours", target: "", cmd: [process.execPath, "src/main.ts", "--host-port", "127.0.0.1:0"] } as any, argv);
            for (const r of rows) {
              const id = `${r.scenario}/${r.variant}`;
              runs.push({ round, side, metric: id, ok: true, otherCpuPct: r.resources.machine?.otherPct ?? null, row: r });
              console.log(`  r${round} ${side} ${id}: ${num(r.msgsPerSec, 0)} msg/s, p99 ${num(r.latency.p99, 1)} ms, ${num(r.serverMicrosPerMsg, 2)} µs/msg, ` +
                `RSS ${num(r.extra.serverLifetimePeakRssMB as number, 0)} MB${r.pass === false ? `, FAILED (${r.criterion}; lost ${r.lost} dup ${r.duplicates} err ${r.errors})` : ""}` +
                `${(r.resources.machine?.otherPct ?? 0) >= 25 ? ` (other CPU ${r.resources.machine!.otherPct!.toFixed(0)} %)` : ""}`);
            }
          } catch (e: any) {
            const id = VARIANTS[name]?.id ?? name;
            runs.push({ round, side, metric: id, ok: false, error: String(e?.message ?? e), otherCpuPct: null, row: null });
            console.error(`  r${round} ${side} ${id}: FAILED ${e?.message ?? e}`);
          }
        }
      }
    }
  } finally { baseline.cleanup(); }

  // ---- summary
  const metrics = [...new Set(runs.map((r) => r.metric))];
  const gateMetric = metrics.includes("throughput/tuned") ? "throughput/tuned" : metrics[0];
  const summaries: Summary[] = [];
  for (const m of metrics) {
    const pick = (side: "A" | "B", q: Quantity) => Array.from({ length: roundsRun }, (_, i) => {
      const r = runs.find((x) => x.metric === m && x.side === side && x.round === i + 1);
      return r?.ok && r.row ? q.get(r.row) : null;
    });
    for (const q of QUANTITIES) summaries.push(summarize(m, q, pick("A", q), pick("B", q), m === gateMetric && GATED.has(q.key)));
  }
  const failedRun = (side: "A" | "B") => runs.filter((r) => r.side === side && (!r.ok || r.row?.pass === false));
  const lossy = (side: "A" | "B") => runs.some((r) => r.side === side && r.row && ((r.row.lost ?? 0) > 0 || (r.row.duplicates ?? 0) > 0));
  const complete = Math.min(...["A", "B"].map((s) => new Set(runs.filter((r) => r.side === s && r.ok).map((r) => r.round)).size));
  const crashed = !runs.some((r) => r.ok) || metrics.some((m) => !runs.some((r) => r.metric === m && r.side === "A" && r.ok) || !runs.some((r) => r.metric === m && r.side === "B" && r.ok));
  const regressions = summaries.filter((s) => s.gated && s.verdict === "worse").map((s) => `${s.metric} ${s.label} ${pct(s.ratio)} (every round past ${THRESHOLD * 100} %)`);
  if (lossy("B") && !lossy("A")) regressions.push("the working tree lost or duplicated messages; the baseline did not");
  const flagged = summaries.filter((s) => !s.gated && s.verdict !== "~" && s.verdict !== "n/a").map((s) => `${s.metric} ${s.label} ${s.verdict} (${pct(s.ratio)})`);
  const pairs = summaries.find((s) => s.gated)?.roundRatios.length ?? 0;
  const verdict = crashed ? "BENCH FAILED (a side has no successful run of some metric)"
    : regressions.length ? `REGRESSION: ${regressions.join("; ")}`
    : pairs < MIN_ROUNDS ? `no verdict: ${pairs} complete round(s), ${MIN_ROUNDS} needed to call a regression`
    : "no regression beyond the measured noise";
  const rule = `exit 1 iff ≥ ${MIN_ROUNDS} paired rounds and, on ${gateMetric}, every per-round ratio B/A is < ${1 - THRESHOLD} for msg/s or > ${1 + THRESHOLD} for srv µs/msg (* = gated), or B lost/duplicated messages and A did not`;
  const maxOther = Math.max(0, ...runs.map((r) => r.otherCpuPct ?? 0));
  const secs = (performance.now() - t0) / 1000;
  const runLines = runs.map((r) => `  r${r.round} ${r.side} ${r.metric.padEnd(18)} ${r.ok && r.row ? `${num(r.row.msgsPerSec, 0).padStart(8)} msg/s  p99 ${num(r.row.latency.p99, 1).padStart(7)} ms  ${num(r.row.serverMicrosPerMsg, 2).padStart(6)} µs/msg  RSS ${num(r.row.extra.serverLifetimePeakRssMB as number, 0).padStart(4)} MB  other CPU ${num(r.otherCpuPct, 0)} %${r.row.pass === false ? "  FAILED" : ""}` : `FAILED: ${r.error}`}`);
  const text = [
    `pubsub-emulator bench compare — A = ${la}, B = ${lb}; ${roundsRun} rounds${stoppedEarly ? ` (of ${o.rounds}; time budget)` : ""}${o.quick ? " (quick)" : ""}, order AB/BA alternating, ${secs.toFixed(0)} s`,
    env ? envText(env) : "", `baseline: ${baseline.deps}`, "",
    summaryTable(summaries, la, lb), "",
    `A, B = medians of ${roundsRun} rounds; B/A = median of the per-round ratios B_i/A_i (same round, back to back); verdict worse/better = every round past ±${THRESHOLD * 100} %`,
    `rule: ${rule}`,
    `max other CPU% during a run: ${maxOther.toFixed(0)}${maxOther >= 25 ? " (noisy host)" : ""}`,
    ...(failedRun("A").length || failedRun("B").length ? [`failed runs: A ${failedRun("A").length}, B ${failedRun("B").length} (see per-run lines)`] : []),
    ...(flagged.length ? [`reported (not gating): ${flagged.join("; ")}`] : []),
    `result: ${verdict}`, "", "runs:", ...runLines,
  ].join("\n");
  console.log("\n" + text);
  writeReport(dir, stem, { ...(env ?? {}), compare: { ref: o.ref, commitA, commitB: head, dirtyB: dirty, baseline: baseline.deps, rounds: roundsRun, roundsPlanned: o.rounds, completeRounds: complete } },
    runs.flatMap((r) => (r.row ? [{ ...r.row, extra: { ...r.row.extra, round: r.round, side: r.side } }] : [])), text,
    { summaries, runs: runs.map(({ row, ...r }) => ({ ...r, msgsPerSec: row?.msgsPerSec ?? null })), rule, verdict, regression: regressions.length > 0 && !crashed });
  console.log(`\nwritten: bench/results/${stem}.{json,txt} (server logs in ${stem}.logs/)`);
  process.exit(crashed ? 3 : regressions.length ? 1 : 0);
}

if (import.meta.main) await main(process.argv.slice(2));

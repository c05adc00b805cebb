/**
 * Runs every bench/mitata/*.bench.ts, each in its own bun process (fresh JIT and heap), the whole
 * set `--runs` times (default 2, interleaved so a passing burst of load hits different files),
 * and writes bench/results/<stamp>-mitata.json + .txt: the environment, the best run's figures
 * per benchmark (lowest avg; other processes may share the machine) and every run's report.
 *
 *   bun bench/mitata/all.ts                 # all files, 2 runs
 *   bun bench/mitata/all.ts --runs 3 codec  # only files whose name contains "codec"
 */
import { readdirSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { arch, cpus, loadavg, release, totalmem, type as osType } from "node:os";
import { basename, join, resolve } from "node:path";
import type { BenchResult } from "./fixtures.ts";

const HERE = import.meta.dir;
const ROOT = resolve(HERE, "../..");
const RESULTS = join(ROOT, "bench/results");

// ---- arguments ----
let runs = 2;
const only: string[] = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--runs") runs = Math.max(1, Number(argv[++i]) | 0);
  else if (argv[i] === "-h" || argv[i] === "--help") {
    console.log("usage: bun bench/mitata/all.ts [--runs N] [file-name-substring ...]");
    process.exit(0);
  } else only.push(argv[i]);
}
const files = readdirSync(HERE)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error(`no bench files match ${only.join(", ")}`);
  process.exit(2);
}

// ---- environment ----
function sh(cmd: string[]): string {
  const r = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  return r.success ? r.stdout.toString().trim() : "";
}
function cpuModel(): string {
  try {
    const m = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.+)$/m);
    if (m) return m[1].trim();
  } catch {}
  return cpus()[0]?.model ?? "unknown";
}
const mitataVersion = JSON.parse(readFileSync(join(ROOT, "node_modules/mitata/package.json"), "utf8")).version;
const env = {
  date: new Date().toISOString(),
  gitCommit: sh(["git", "rev-parse", "HEAD"]) || null,
  gitDirty: sh(["git", "status", "--porcelain", "--", "src"]) !== "",
  bun: Bun.version,
  bunRevision: Bun.revision,
  mitata: mitataVersion,
  runtimeFlags: process.execArgv,
  cpu: cpuModel(),
  cores: cpus().length,
  memoryBytes: totalmem(),
  os: `${osType()} ${release()} ${arch()}`,
  loadavgBefore: loadavg(),
  loadavgAfter: [] as number[],
  runs,
};

// ---- run ----
interface FileRun {
  run: number;
  wallMs: number;
  exitCode: number | null;
  context: unknown;
  results: BenchResult[];
  report: string;
}
const byFile = new Map<string, FileRun[]>(files.map((f) => [f, []]));
mkdirSync(RESULTS, { recursive: true });
const stamp = env.date.replace(/[-:]/g, "").replace(/\..*/, "").replace(/^(\d{4})(\d{2})(\d{2})/, "$1-$2-$3");
let failed = false;

for (let run = 1; run <= runs; run++) {
  for (const file of files) {
    const tmp = join(RESULTS, `.mitata-${process.pid}-${basename(file, ".ts")}.json`);
    console.log(`\n=== ${file} (run ${run}/${runs}) ===`);
    const t0 = performance.now();
    const child = Bun.spawn([process.execPath, join(HERE, file)], {
      cwd: ROOT,
      env: { ...process.env, MITATA_OUT: tmp },
      stdout: "pipe",
      stderr: "inherit",
    });
    let report = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      const text = decoder.decode(chunk, { stream: true });
      report += text;
      process.stdout.write(text);
    }
    const exitCode = await child.exited;
    let parsed: { context: unknown; results: BenchResult[] } = { context: null, results: [] };
    try {
      parsed = JSON.parse(readFileSync(tmp, "utf8"));
      rmSync(tmp);
    } catch {
      failed = true;
      console.error(`${file}: no results (exit ${exitCode})`);
    }
    if (exitCode !== 0 || parsed.results.some((r) => r.error)) failed = true;
    byFile.get(file)!.push({ run, wallMs: performance.now() - t0, exitCode, ...parsed, report });
  }
}
env.loadavgAfter = loadavg();

// ---- best of the runs, per benchmark ----
interface Best extends BenchResult {
  file: string;
  bestRun: number;
  avgByRun: number[];
}
const best: Best[] = [];
for (const [file, fileRuns] of byFile) {
  const names = new Map<string, BenchResult[]>();
  for (const fr of fileRuns) for (const r of fr.results) names.set(`${r.group}\u0000${r.name}`, [...(names.get(`${r.group}\u0000${r.name}`) ?? []), r]);
  for (const rs of names.values()) {
    const ok = rs.filter((r) => !r.error && Number.isFinite(r.avg));
    const pick = ok.length ? ok.reduce((a, b) => (b.avg < a.avg ? b : a)) : rs[0];
    best.push({ ...pick, file, bestRun: rs.indexOf(pick) + 1, avgByRun: rs.map((r) => r.avg) });
  }
}

// ---- write ----
function time(ns: number): string {
  if (!Number.isFinite(ns)) return "—";
  if (ns < 1e3) return `${ns.toFixed(1)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}
function bytes(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return "—";
  if (n < 1024) return `${n.toFixed(0)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

const lines: string[] = [];
lines.push("pubsub-emulator — mitata micro-benchmarks");
lines.push("");
lines.push(`date        ${env.date}`);
lines.push(`commit      ${env.gitCommit ?? "?"}${env.gitDirty ? " (src/ has uncommitted changes)" : ""}`);
lines.push(`bun         ${env.bun} (${env.bunRevision.slice(0, 12)})${env.runtimeFlags.length ? ` flags ${env.runtimeFlags.join(" ")}` : ""}`);
lines.push(`mitata      ${env.mitata}`);
lines.push(`cpu         ${env.cpu}, ${env.cores} cores, ${(env.memoryBytes / 2 ** 30).toFixed(1)} GiB RAM`);
lines.push(`os          ${env.os}`);
lines.push(`load avg    before ${env.loadavgBefore.map((l) => l.toFixed(2)).join(" ")}, after ${env.loadavgAfter.map((l) => l.toFixed(2)).join(" ")}`);
lines.push(`runs        ${runs}; each figure is the run with the lowest avg (the machine may be shared)`);
lines.push("");
const head = ["benchmark", "avg", "p50", "p99", "heap/iter", "avg by run"];
for (const file of files) {
  const rows = best.filter((b) => b.file === file);
  lines.push(`## ${file}`);
  let group: string | null | undefined;
  const table: string[][] = [];
  for (const r of rows) {
    if (r.group !== group) {
      group = r.group;
      if (group) table.push([`• ${group}`, "", "", "", "", ""]);
    }
    if (r.error) table.push([`  ${r.name}`, `error: ${r.error}`, "", "", "", ""]);
    else table.push([`  ${r.name}`, time(r.avg), time(r.p50), time(r.p99), bytes(r.heapAvg), r.avgByRun.map(time).join(" / ")]);
  }
  const w = head.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const fmt = (t: string[]) => t.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join("  ").trimEnd();
  lines.push(fmt(head), w.map((n) => "-".repeat(n)).join("  "), ...table.map(fmt), "");
}
lines.push("", "=".repeat(80), "mitata reports", "=".repeat(80));
for (const [file, fileRuns] of byFile) {
  for (const fr of fileRuns) {
    lines.push("", `### ${file}, run ${fr.run} (exit ${fr.exitCode}, ${(fr.wallMs / 1000).toFixed(1)} s)`, fr.report.trimEnd());
  }
}

const base = join(RESULTS, `${stamp}-mitata`);
await Bun.write(`${base}.txt`, lines.join("\n") + "\n");
await Bun.write(
  `${base}.json`,
  JSON.stringify(
    {
      env,
      best,
      files: Object.fromEntries([...byFile].map(([f, rs]) => [f, rs.map(({ report: _report, ...rest }) => rest)])),
    },
    null,
    2,
  ),
);
console.log(`\n${lines.slice(0, lines.indexOf("=".repeat(80)) - 1).join("\n")}`);
console.log(`wrote ${base}.json\nwrote ${base}.txt`);
process.exit(failed ? 1 : 0);

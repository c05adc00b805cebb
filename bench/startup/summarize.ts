/**
 * Reads the JSON of startup.sh's repeated runs (hyperfine --export-json, or loop.ts's same
 * shape), picks per command the run with the lowest mean, and writes a text summary with the
 * environment.
 *
 *   bun bench/startup/summarize.ts OUT.txt TOOL RUN1.json [RUN2.json ...]
 */
import { readFileSync } from "node:fs";
import { arch, cpus, loadavg, release, totalmem, type as osType } from "node:os";
import { basename, resolve } from "node:path";

interface Result {
  command: string;
  mean: number;
  stddev: number | null;
  median: number;
  min: number;
  max: number;
  times?: number[];
  exit_codes?: number[];
}

const [out, tool, ...files] = process.argv.slice(2);
const ROOT = resolve(import.meta.dir, "../..");
const sh = (cmd: string[]) => {
  const r = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  return r.success ? r.stdout.toString().trim() : "?";
};
const cpu = (() => {
  try {
    return readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.+)$/m)?.[1].trim() ?? cpus()[0]?.model;
  } catch {
    return cpus()[0]?.model;
  }
})();

const runs = files.map((f) => (JSON.parse(readFileSync(f, "utf8")).results as Result[]));
const commands = runs[0].map((r) => r.command);
const ms = (s: number | null | undefined) => (s == null ? "—" : `${(s * 1e3).toFixed(1)} ms`);

const rows = commands.map((c) => {
  const per = runs.map((rs) => rs.find((r) => r.command === c)!);
  const best = per.reduce((a, b) => (b.mean < a.mean ? b : a));
  const failures = per.flatMap((r) => r.exit_codes ?? []).filter((x) => x !== 0).length;
  return [c, ms(best.mean), `± ${ms(best.stddev)}`, ms(best.median), ms(best.min), ms(best.max), per.map((r) => ms(r.mean)).join(" / "), String(failures)];
});
const head = ["command", "mean", "σ", "median", "min", "max", "mean by run", "failed"];
const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (t: string[]) => t.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join("  ").trimEnd();

const lines = [
  "pubsub-emulator — start-up timings",
  "",
  `date        ${new Date().toISOString()}`,
  `commit      ${sh(["git", "rev-parse", "HEAD"])}`,
  `bun         ${Bun.version} (${Bun.revision.slice(0, 12)})`,
  `tool        ${tool}`,
  `cpu         ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM`,
  `os          ${osType()} ${release()} ${arch()}`,
  `load avg    ${loadavg().map((l) => l.toFixed(2)).join(" ")} (at the end)`,
  `runs        ${files.length} (${files.map((f) => basename(f)).join(", ")}); figures from the run with the lowest mean per command`,
  "",
  fmt(head),
  w.map((n) => "-".repeat(n)).join("  "),
  ...rows.map(fmt),
];
await Bun.write(out, lines.join("\n") + "\n");
console.log(lines.join("\n"));

/**
 * Fallback for startup.sh when hyperfine cannot be installed: times whole commands with
 * Bun.nanoseconds() around Bun.spawnSync and writes JSON in hyperfine's --export-json shape
 * (times in seconds), so summarize.ts reads either.
 *
 *   bun bench/startup/loop.ts OUT.json RUNS WARMUP NAME1 CMD1 [NAME2 CMD2 ...]
 *
 * Commands are split on spaces and run without a shell (like hyperfine -N).
 */
export {};

const [out, runsArg, warmupArg, ...pairs] = process.argv.slice(2);
if (!out || !runsArg || pairs.length < 2 || pairs.length % 2) {
  console.error("usage: bun bench/startup/loop.ts OUT.json RUNS WARMUP NAME CMD [NAME CMD ...]");
  process.exit(2);
}
const runs = Number(runsArg);
const warmup = Number(warmupArg);

function once(argv: string[]): { seconds: number; code: number } {
  const t0 = Bun.nanoseconds();
  const r = Bun.spawnSync(argv, { stdout: "ignore", stderr: "ignore" });
  return { seconds: (Bun.nanoseconds() - t0) / 1e9, code: r.exitCode ?? -1 };
}

const results = [];
for (let i = 0; i < pairs.length; i += 2) {
  const name = pairs[i];
  const argv = pairs[i + 1].split(" ").filter(Boolean);
  for (let w = 0; w < warmup; w++) once(argv);
  const times: number[] = [];
  const exit_codes: number[] = [];
  for (let r = 0; r < runs; r++) {
    const { seconds, code } = once(argv);
    times.push(seconds);
    exit_codes.push(code);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const stddev = Math.sqrt(times.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, times.length - 1));
  const median = sorted.length % 2 ? sorted[sorted.length >> 1] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  results.push({ command: name, mean, stddev, median, min: sorted[0], max: sorted[sorted.length - 1], times, exit_codes });
  console.log(`${name}: mean ${(mean * 1e3).toFixed(1)} ms ± ${(stddev * 1e3).toFixed(1)} (min ${(sorted[0] * 1e3).toFixed(1)}, max ${(sorted[sorted.length - 1] * 1e3).toFixed(1)}), ${runs} runs`);
  if (exit_codes.some((c) => c !== 0)) console.error(`  warning: non-zero exit codes ${[...new Set(exit_codes)].join(", ")}`);
}
await Bun.write(out, JSON.stringify({ tool: "bun-loop (Bun.nanoseconds)", results }, null, 2));

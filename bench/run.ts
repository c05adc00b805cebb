// Benchmark runner.
//
//   bun bench/run.ts [scenario…] [--target host:port] [--server ours|reference|pstest] [--quick]
//                    [--duration s] [--smol] [--ceiling msg/s] [--repeat n] [--server-arg ARG]…
//                    [--root DIR] [--server-wrap "CMD ARG…"] [--out STEM] [--stores memory,data-dir]
//   bun bench/run.ts compare <git-ref> …   → bench/compare.ts
//   bun bench/run.ts sizing …              → bench/sizing.ts
//
// Without --target, each scenario gets a fresh server child on a free loopback port
// (`bun [--smol] src/main.ts --host-port 127.0.0.1:0`, or bench/reference/server.ts), and
// server RSS/CPU are read from /proc/<pid>. With --target, server figures come from
// GET http://<target>/metrics, or are reported as unknown.
//
// The runner lives in lib/runner.ts, so that compare and the scenarios (each also runs on its own:
// `bun bench/scenarios/pull.ts --quick`) reach it without importing this entry back.

export async function main(argv: string[]) {
  if (argv[0] === "compare") return (await import("./compare.ts")).main(argv.slice(1));
  if (argv[0] === "sizing") return (await import("./sizing.ts")).main(argv.slice(1));
  return (await import("./lib/runner.ts")).main(argv);
}

if (import.meta.main) await main(process.argv.slice(2));

/**
 * What one start costs, measured in ways a busy machine disturbs less than wall time: on-CPU time
 * of every server thread (/proc/PID/task/* /schedstat) from spawn to the started line and to the
 * first GET /health answered, beside wall time; idle RSS 2 s later, split into anonymous memory (ours:
 * heaps, JIT code) and file-backed pages (Bun's executable and the embedded bundle, which the kernel
 * shares between processes and maps in fault-around blocks, so they vary with the page cache).
 * Medians of N runs.
 *
 *   bun bench/startup/ready-cost.ts 9 bun src/main.ts
 *   bun bench/startup/ready-cost.ts 9 dist/pubsub-emulator
 */
import { readFileSync } from "node:fs";
import { cpuMs } from "./proc.ts";

const [runs, ...cmd] = process.argv.slice(2);
if (!Number(runs) || !cmd.length) {
  console.error("usage: bun bench/startup/ready-cost.ts RUNS COMMAND [ARGS…]");
  process.exit(2);
}

async function once(): Promise<number[]> {
  const t0 = Bun.nanoseconds();
  const server = Bun.spawn([...cmd, "--host-port", "127.0.0.1:0", "--log-level", "warn"], { stdout: "pipe", stderr: "inherit" });
  const killer = setTimeout(() => server.kill("SIGKILL"), 15_000);
  try {
    const reader = server.stdout.getReader();
    const decoder = new TextDecoder();
    let out = "";
    while (!/listening on \d+/.test(out)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${cmd.join(" ")} exited before its started line: ${out}`);
      out += decoder.decode(value, { stream: true });
    }
    const ready = [(Bun.nanoseconds() - t0) / 1e6, cpuMs(server.pid)];
    const port = /listening on (\d+)/.exec(out)![1];
    await (await fetch(`http://127.0.0.1:${port}/health`)).text();
    const first = [(Bun.nanoseconds() - t0) / 1e6, cpuMs(server.pid)];
    await Bun.sleep(2000);
    const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
    const mib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
    return [...ready, ...first, mib("VmRSS"), mib("RssAnon"), mib("RssFile")];
  } finally {
    clearTimeout(killer);
    server.kill();
    await server.exited;
  }
}

const rows: number[][] = [];
for (let i = 0; i < Number(runs); i++) rows.push(await once());
const median = (k: number) => rows.map((r) => r[k]).sort((a, b) => a - b)[rows.length >> 1].toFixed(1);
console.log(
  `${cmd.join(" ")}: started line ${median(0)} ms wall, ${median(1)} ms CPU; first GET /health ${median(2)} ms wall, ` +
    `${median(3)} ms CPU; idle RSS ${median(4)} MiB ` +
    `(anonymous ${median(5)}, file-backed ${median(6)}: Bun's executable pages, shared and clean) (medians of ${runs})`,
);

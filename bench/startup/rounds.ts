/**
 * Spawn → first CreateTopic answered, several servers side by side: each round runs
 * `first-rpc.ts --warm --verbose --rss --binary BIN` once per server, in turn, so a busy host
 * disturbs them alike; then medians (min…max) of the server's on-CPU time to its started line and
 * to the first answer, its RSS after it, and the wall times. With --evict each binary's pages are
 * dropped from the page cache before every run (`dd iflag=nocache`), as after a reboot or an image
 * pull: file-backed RSS then no longer depends on how recently the file was written or read.
 *
 *   bun bench/startup/rounds.ts 9 [--evict] ours=dist/pubsub-emulator base=/tmp/base/dist/pubsub-emulator pstest=bench/results/pstest-server
 *
 * Any binary that takes `--host-port 127.0.0.1:0 --log-level warn` and prints the started line will do.
 */
import { loadavg } from "node:os";
import { resolve } from "node:path";

const args = process.argv.slice(2);
const rounds = Number(args[0]);
const evict = args.includes("--evict");
const servers = args.filter((a) => a.includes("=")).map((a) => ({ name: a.slice(0, a.indexOf("=")), bin: resolve(a.slice(a.indexOf("=") + 1)) }));
if (!(rounds > 0) || !servers.length) {
  console.error("usage: bun bench/startup/rounds.ts ROUNDS [--evict] NAME=BINARY…");
  process.exit(2);
}
const firstRpc = resolve(import.meta.dir, "first-rpc.ts");
const FIELDS = ["CPU to started line", "CPU to first answer", "RSS after it", "RSS 1 s later", "wall to listening", "wall to answer"] as const;
const PATTERN = /started line ([\d.]+) ms, to first answer ([\d.]+) ms, rss after it ([\d.]+) MB, 1 s later ([\d.]+) MB[\s\S]*listening ([\d.]+) ms, first CreateTopic [\d.]+ ms, total ([\d.]+) ms/;

function once(bin: string): number[] {
  // A copied file's dirty pages stay cached until written back: sync it first.
  if (evict) Bun.spawnSync(["sh", "-c", 'sync "$0" && dd if="$0" iflag=nocache count=0 status=none', bin]);
  const r = Bun.spawnSync([process.execPath, firstRpc, "--warm", "--verbose", "--rss", "--binary", bin], { stdout: "pipe", stderr: "pipe", timeout: 30_000 });
  const m = PATTERN.exec(r.stdout.toString());
  if (r.exitCode !== 0 || !m) throw new Error(`${bin}: exit ${r.exitCode}: ${r.stdout.toString().slice(0, 300)} ${r.stderr.toString().slice(0, 300)}`);
  return m.slice(1).map(Number);
}

const loads = [loadavg()[0]];
const results = new Map(servers.map((s) => [s.name, [] as number[][]]));
for (let round = 0; round < rounds; round++) {
  for (const s of servers) results.get(s.name)!.push(once(s.bin));
  loads.push(loadavg()[0]);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
console.log(`${rounds} rounds${evict ? ", binaries evicted from the page cache before each run" : ", warm page cache"}; load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
console.log(["server", ...FIELDS.map((f) => `${f} (${f.startsWith("RSS") ? "MB" : "ms"})`)].join(" | "));
for (const s of servers) {
  const rows = results.get(s.name)!;
  const cells = FIELDS.map((_, k) => {
    const xs = rows.map((r) => r[k]!);
    return `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}…${Math.max(...xs).toFixed(1)})`;
  });
  console.log([s.name, ...cells].join(" | "));
}

/**
 * One focused load against a running server, for profiling it: the compare metrics of
 * bench/lib/variants.ts (throughput = e2e StreamingPull, tuned client; firehose = publish 1 KB;
 * pull = unary Pull + Acknowledge), one row each.
 *
 *   bun bench/profile/load.ts firehose|throughput|pull --target host:port [--duration s]
 *   bun bench/profile/load.ts firehose --server ours|reference|pstest [--duration s] [--root DIR] [--window n] [--batch n]
 * --window: firehose's outstanding messages (300; 10000 is a publisher that does not wait, issue 30's measure).
 * --batch: firehose's client batching.maxMessages (100; up to 1000, the service's limit), maxBytes 9 MiB.
 * With --server it starts that server (fresh, its CPU read from /proc) and stops it after.
 */
import { VARIANTS, firehose } from "../lib/variants.ts";
import { remoteServer, startServer } from "../lib/server.ts";
import { finish, type Ctx } from "../lib/report.ts";

const [name, ...rest] = process.argv.slice(2);
const at = (flag: string) => { const i = rest.indexOf(flag); return i >= 0 ? rest[i + 1] : undefined; };
const kind = at("--server");
const v = VARIANTS[name ?? ""];
if (!v || !(at("--target") || kind === "ours" || kind === "reference" || kind === "pstest")) {
  console.error(`usage: bun bench/profile/load.ts ${Object.keys(VARIANTS).join("|")} --target host:port|--server ours|reference|pstest [--duration s] [--root DIR]`);
  process.exit(2);
}
const server = kind
  ? await startServer({ kind: kind as "ours", smol: false, root: at("--root"), logFile: "/dev/null" })
  : remoteServer(at("--target")!);
const target = server.target;
const ctx: Ctx = { server, target, quick: true, duration: Number(at("--duration")) || null, ceiling: null, repeat: 1, log: () => {} };
const window = Number(at("--window")) || undefined;
const batch = Number(at("--batch")) || undefined;
const r = finish(await ((window || batch) && name === "firehose" ? firehose(ctx, "1KB", window, batch) : v.run(ctx)));
await server.stop();
console.log(`${v.id} [${kind ?? target}]: ${Math.round(r.msgsPerSec ?? 0)} msg/s, server ${r.serverMicrosPerMsg?.toFixed(2)} µs/msg, p99 ${r.latency.p99?.toFixed(1)} ms, lost ${r.lost} dup ${r.duplicates} err ${r.errors}`);
process.exit(0);

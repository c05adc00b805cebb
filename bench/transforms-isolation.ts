// Transforms isolation: does a UDF spinning to its 100 ms time limit on one topic hold up the
// Publish calls of other topics? One run, fresh servers, the same client load on each:
//   - quiet: a paced publisher (one 1 KiB message per Publish, awaited, on a topic whose UDF adds
//     one attribute) — its latency p50/p99/max is the figure;
//   - spinning: meanwhile `--spinners` closed-loop publishers to another topic whose UDF never
//     returns (each Publish fails INVALID_ARGUMENT after 100 ms, as documented).
// Rows: the worker pool (--transform-workers 2, the default) and on the event loop
// (--transform-workers 0, as before the pool), each without and with the spinners.
//
//   bun bench/transforms-isolation.ts [--seconds 5] [--rate 200] [--spinners 1] [--root DIR]
//
// Loopback only; every loop bounded by --seconds; no figure is asserted (printed for the journal).
import { v1 } from "@google-cloud/pubsub";
import { credentials } from "@grpc/grpc-js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./lib/server.ts";
import { sleep } from "./lib/stats.ts";

process.env.METADATA_SERVER_DETECTION ??= "none";

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const SECONDS = Math.min(60, Number(opt("--seconds", "5")));
const RATE = Math.min(2000, Number(opt("--rate", "200")));
const SPINNERS = Math.min(16, Number(opt("--spinners", "1")));
const root = opt("--root", "");

const udf = (name: string, body: string) => ({ javascriptUdf: { functionName: name, code: `function ${name}(message, metadata) { ${body} }` } });
const TAG = udf("tag", "message.attributes.seen = '1'; return message;");
const SPIN = udf("spin", "for (;;) {}");
const DATA = Buffer.from(JSON.stringify({ order: 1, note: "x".repeat(1000) }));

function pct(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN;
}

async function once(workers: number, spinners: number) {
  const server = await startServer({ kind: "ours", smol: false, args: ["--transform-workers", String(workers)], logFile: join(mkdtempSync(join(tmpdir(), "smt-iso-")), "server.log"), ...(root ? { root } : {}) });
  const [host, port] = server.target.split(":");
  const opts = { servicePath: host, port: Number(port), sslCreds: credentials.createInsecure() };
  const quietPub = new v1.PublisherClient(opts);
  const spinPub = new v1.PublisherClient(opts);
  const quiet = "projects/bench/topics/quiet";
  const spin = "projects/bench/topics/spin";
  try {
    await quietPub.createTopic({ name: quiet, messageTransforms: [TAG] } as never);
    await quietPub.createTopic({ name: spin, messageTransforms: [SPIN] } as never);
    // Warm: each topic's chain compiled and run once (the workers started).
    await quietPub.publish({ topic: quiet, messages: [{ data: DATA }] });
    await spinPub.publish({ topic: spin, messages: [{ data: DATA }] }).catch(() => {});
    // Warm: one second of the quiet load (the interpreters' code tiers up), not measured.
    const warmUntil = performance.now() + 1000;
    while (performance.now() < warmUntil) await quietPub.publish({ topic: quiet, messages: [{ data: DATA }] });
    const until = performance.now() + SECONDS * 1000;
    let spun = 0;
    const spinning = Array.from({ length: spinners }, async () => {
      while (performance.now() < until) {
        await spinPub.publish({ topic: spin, messages: [{ data: DATA }] }).catch(() => {});
        spun++;
      }
    });
    const lat: number[] = [];
    const pending: Promise<void>[] = [];
    const interval = 1000 / RATE;
    const start = performance.now();
    for (let i = 0; performance.now() < until; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const t0 = performance.now();
      pending.push(quietPub.publish({ topic: quiet, messages: [{ data: DATA }] }).then(() => void lat.push(performance.now() - t0)));
    }
    await Promise.all(pending);
    await Promise.all(spinning);
    lat.sort((a, b) => a - b);
    return { workers, spinners, quietPublishes: lat.length, spinPublishes: spun, p50Ms: +pct(lat, 50).toFixed(2), p99Ms: +pct(lat, 99).toFixed(2), maxMs: +lat[lat.length - 1]!.toFixed(2) };
  } finally {
    await quietPub.close();
    await spinPub.close();
    await server.stop();
  }
}

const rows = [];
for (const workers of [2, 0]) {
  for (const spinners of [0, SPINNERS]) {
    const r = await once(workers, spinners);
    console.log(JSON.stringify(r));
    rows.push(r);
  }
}
console.log(`\n| transform workers | spinning publishers | quiet Publishes | p50 ms | p99 ms | max ms | spin Publishes |\n|---|---|---|---|---|---|---|`);
for (const r of rows) console.log(`| ${r.workers} | ${r.spinners} | ${r.quietPublishes} | ${r.p50Ms} | ${r.p99Ms} | ${r.maxMs} | ${r.spinPublishes} |`);

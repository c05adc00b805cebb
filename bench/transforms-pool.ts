// What one message through a JavaScript UDF costs, thread by thread: the one-attribute UDF of
// bench/scenarios/transforms.ts on 1 KiB of JSON, (a) called on this thread one message at a
// time (the event-loop path, --transform-workers 0), (b) in batches of 100 through one entry into
// the interpreter, (c) through the worker pool in batches of 100 (the Publish path). CPU per
// message from /proc/self/task/*/stat (Linux): the calling thread's ("main") and the workers'.
//
//   bun bench/transforms-pool.ts [--seconds 3] [--batch 100]
//
// Bounded by --seconds per case; no figure is asserted (printed for the journal).
import { readdirSync, readFileSync } from "node:fs";
import { batchItem, loadQuickJsEngine } from "../src/transforms/quickjs-engine.ts";
import { WorkerPool } from "../src/transforms/udf-pool.ts";

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const SECONDS = Math.min(30, Number(opt("--seconds", "3")));
const BATCH = Math.min(1000, Number(opt("--batch", "100")));

const CODE = "function tag(message, metadata) { message.attributes.seen = '1'; return message; }";
const DATA = Buffer.from(JSON.stringify({ order: 1, sku: "SKU-1", note: "x".repeat(1024 - 36) }));
const META = { publish_time: "2026-01-01T00:00:00Z" };

/** CPU ms per thread name: this thread is "main", worker threads "worker". */
function threads(): Map<string, number> {
  const out = new Map<string, number>();
  const self = readFileSync("/proc/thread-self/stat", "utf8").split(" ")[0];
  for (const t of readdirSync("/proc/self/task")) {
    try {
      const s = readFileSync(`/proc/self/task/${t}/stat`, "utf8");
      const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
      const name = t === self ? "main" : /\(Worker\)/.test(s) ? "worker" : "other";
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {}
  }
  return out;
}

async function measure(label: string, step: () => Promise<number> | number): Promise<void> {
  for (let warm = performance.now(); performance.now() - warm < 1000; ) await step();
  const before = threads();
  let n = 0;
  const t = performance.now();
  while (performance.now() - t < SECONDS * 1000) n += await step();
  const after = threads();
  const per = (k: string) => (((after.get(k) ?? 0) - (before.get(k) ?? 0)) * 1000) / n;
  console.log(`| ${label} | ${Math.round(n / SECONDS)} | ${per("main").toFixed(2)} | ${per("worker").toFixed(2)} | ${per("other").toFixed(2)} |`);
}

console.log("| case | msg/s | main µs/msg | workers µs/msg | other threads µs/msg |\n|---|---|---|---|---|");
const engine = await loadQuickJsEngine();
const udf = engine.compile("tag", CODE);
if (typeof udf === "string") throw new Error(udf);
const message = { data: DATA, attributes: { a: "1" } };
await measure("on this thread, one call per message", () => {
  for (let i = 0; i < BATCH; i++) udf.run(message, META);
  return BATCH;
});
const items = Array.from({ length: BATCH }, () => batchItem(DATA, JSON.stringify({ a: "1" }), JSON.stringify(META)));
await measure(`on this thread, batches of ${BATCH}`, () => (udf.runBatch(items, false), BATCH));
const pool = new WorkerPool(1);
const chain = pool.chain([{ kind: "javascript_udf", name: "tag", code: CODE }]);
const inputs = Array.from({ length: BATCH }, () => ({ data: DATA, attributes: { a: "1" }, meta: META }));
await measure(`worker pool, batches of ${BATCH}`, async () => ((await chain.run(inputs, true)), BATCH));
pool.close();

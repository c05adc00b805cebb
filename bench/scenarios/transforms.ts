// Transforms — what a one-line JavaScript UDF costs. Publish only (0 subscriptions, the firehose
// loop) and end to end (1 subscription, the throughput loop, tuned client), each with no
// transform, one on the topic and (end to end) one on the subscription, in one run so the server
// µs/msg of each sits beside the others. The UDF adds one attribute and keeps the bench's own.
// Messages are 1 KB of JSON text, as UDFs expect (the other scenarios' random bytes are not
// UTF-8: a UDF sees them with U+FFFD replacements, through a slower path for NUL bytes).
import { Flow, flowRow, measured, uniqueName } from "../lib/flow.ts";
import type { Ctx, Row } from "../lib/report.ts";
import { VARIANTS, WINDOW } from "./throughput.ts";

export const about = "one-line JavaScript UDF on the topic / on the subscription beside none; publish and e2e";

const UDF = [{ javascriptUdf: { functionName: "tag", code: "function tag(message, metadata) { message.attributes.seen = '1'; return message; }" } }];
const JSON_1KB = Buffer.from(JSON.stringify({ order: 1, sku: "SKU-1", note: "x".repeat(1024 - JSON.stringify({ order: 1, sku: "SKU-1", note: "" }).length) }));
const PUBLISH_WINDOW = 300;
const PUBLISH_WINDOW_BYTES = 2 * 2 ** 20;

type Where = "none" | "topic" | "subscription";

async function once(ctx: Ctx, kind: "publish" | "e2e", where: Where): Promise<Row> {
  const warm = ctx.quick ? 1 : 3;
  const meas = ctx.duration ?? (ctx.quick ? 3 : 10);
  const publishOnly = kind === "publish";
  Bun.gc(true);
  const flow = await Flow.create({
    target: ctx.target, name: uniqueName("smt"), subs: publishOnly ? 0 : 1, listen: !publishOnly, publishOnly,
    subscriber: publishOnly ? undefined : VARIANTS.tuned!.subscriber,
    topicTransforms: where === "topic" ? UDF : undefined,
    subTransforms: where === "subscription" ? UDF : undefined,
  });
  try {
    const pay = () => JSON_1KB;
    const loop = publishOnly
      ? () => flow.closedLoop({ ms: meas * 1000, window: PUBLISH_WINDOW, windowBytes: PUBLISH_WINDOW_BYTES, payload: pay })
      : () => flow.closedLoop({ ms: meas * 1000, window: WINDOW, payload: pay });
    await (publishOnly
      ? flow.closedLoop({ ms: warm * 1000, window: PUBLISH_WINDOW, windowBytes: PUBLISH_WINDOW_BYTES, payload: pay })
      : flow.closedLoop({ ms: warm * 1000, window: WINDOW, payload: pay }));
    await flow.drain(5000, 30000);
    flow.startMeasuring();
    const [[a, b], res] = await measured(ctx, async () => {
      const a = flow.mark();
      await loop();
      if (publishOnly) await flow.drain(5000, 30000);
      return [a, flow.mark()] as const;
    });
    const drained = publishOnly ? true : await flow.drain();
    const r = flowRow({ scenario: "transforms", variant: `${kind}, UDF on ${where}`, flow, a, b, res, kind,
      config: { payload: "1KB JSON text", udf: where === "none" ? null : UDF[0], warmupS: warm, measureS: meas }, extra: { drained } });
    r.pass = (r.lost ?? 0) === 0 && (r.duplicates ?? 0) === 0 && r.errors === 0;
    r.criterion = "no loss, no duplicates, no errors; compare srv µs/msg across the rows";
    return r;
  } finally { await flow.close(); }
}

export async function run(ctx: Ctx): Promise<Row[]> {
  const rows: Row[] = [];
  const cases: [("publish" | "e2e"), Where][] = [["publish", "none"], ["publish", "topic"], ["e2e", "none"], ["e2e", "topic"], ["e2e", "subscription"]];
  for (const [kind, where] of cases) {
    const r = await once(ctx, kind, where);
    ctx.log(`transforms/${r.variant}: ${Math.round(r.msgsPerSec ?? 0)} msg/s, server ${r.serverMicrosPerMsg?.toFixed(2) ?? "?"} µs/msg, errors ${r.errors}`);
    rows.push(r);
  }
  return rows;
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["transforms", ...process.argv.slice(2)]);

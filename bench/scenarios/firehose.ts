// Firehose — ingestion ceiling. 1 topic, 0 subscriptions, one publisher client with
// default batching (100 msgs / 1 MB / 10 ms). Closed loop: at most 300 publishes and 2 MB
// outstanding (about three client batches; larger windows add no throughput here, only a
// starvation tail in the client's HTTP/2 send queue: with 64 × 1 MB outstanding some
// publishes wait seconds). Latency is the publishMessage() promise time (incl. batching).
// "1KB kept": the same with one subscription nobody reads, so the server keeps every message
// (with --data-dir: writes it to disk before answering) — the durable publish rate.
import { Flow, flowRow, measured, uniqueName } from "../lib/flow.ts";
import { meanBytes, payloadFn } from "../lib/payload.ts";
import type { Ctx, Row } from "../lib/report.ts";
import type { PublishOptions } from "@google-cloud/pubsub/build/src/publisher";

export const about = "1 topic, 0 subs, closed-loop publish; 1KB/10KB/1MB and the spec's size mixes";

const WINDOW = 300;
const WINDOW_BYTES = 2 * 2 ** 20;
const CRITERIA: Record<string, number> = { "1KB": 50, "1MB": 200 }; // p99 publish ms (spec)

/**
 * One payload variant's row, without pass/criterion (run sets the spec's; bench compare's firehose/1KB "no errors").
 * `window` (messages; bytes scale with it) replaces the 300: bench/profile/load.ts --window, a publisher that does not wait;
 * `publisher` the client's batching (--batch).
 */
export async function once(ctx: Ctx, payload: string, kept = false, window = WINDOW, publisher?: PublishOptions): Promise<Row> {
  const windowBytes = window === WINDOW ? WINDOW_BYTES : window * 2048;
  const warm = ctx.quick ? 1 : 3;
  const meas = ctx.duration ?? (ctx.quick ? 3 : 10);
  Bun.gc(true);
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("fh"), subs: kept ? 1 : 0, listen: false, publishOnly: true, publisher });
  try {
    const pay = payloadFn(payload);
    await flow.closedLoop({ ms: warm * 1000, window, windowBytes, payload: pay });
    await flow.drain(5000, 30000);
    flow.startMeasuring();
    const [[a, b], res] = await measured(ctx, async () => {
      const a = flow.mark();
      await flow.closedLoop({ ms: meas * 1000, window, windowBytes, payload: pay });
      await flow.drain(5000, 30000); // count only completed publishes, and all of them
      return [a, flow.mark()] as const;
    });
    return flowRow({ scenario: "firehose", variant: kept ? `${payload} kept` : payload, flow, a, b, res, kind: "publish",
      config: { payload, kept, meanBytes: meanBytes(payload), window, windowBytes, warmupS: warm, measureS: meas } });
  } finally { await flow.close(); }
}

export async function run(ctx: Ctx): Promise<Row[]> {
  const variants = ctx.quick
    ? ["1KB", "1KB kept", "10KB", "1MB", "full-spectrum"]
    : ["1KB", "1KB kept", "10KB", "500KB", "1MB", "mixed", "mixed-heavy", "full-spectrum"];
  const rows: Row[] = [];
  for (const variant of variants) {
    const payload = variant.replace(/ kept$/, "");
    const r = await once(ctx, payload, variant !== payload);
    const limit = CRITERIA[payload];
    r.pass = limit != null ? (r.latency.p99 ?? Infinity) < limit && r.errors === 0 : r.errors === 0 ? null : false;
    r.criterion = limit != null ? `p99 publish < ${limit} ms, no errors` : "no errors";
    ctx.log(`firehose/${variant}: ${Math.round(r.msgsPerSec ?? 0)} msg/s ${r.mbPerSec?.toFixed(1)} MB/s p99 ${r.latency.p99?.toFixed(1)} ms errors ${r.errors}`);
    rows.push(r);
  }
  return rows;
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["firehose", ...process.argv.slice(2)]);

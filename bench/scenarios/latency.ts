// Paced e2e latency. 1 topic, 1 subscription, 100 msg/s open loop, 1 KB. The publisher
// sends each message at once (batching.maxMessages 1) so the figure is transport + server,
// not the client's 10 ms batching window; latency is measured from the scheduled send time.
import { Flow, flowRow, measuredPaced, uniqueName } from "../lib/flow.ts";
import { payloadFn } from "../lib/payload.ts";
import type { Ctx, Row } from "../lib/report.ts";

export const about = "1 topic, 1 sub, 100 msg/s paced, e2e latency";

export const RATE = 100;

export async function run(ctx: Ctx): Promise<Row[]> {
  const seconds = ctx.duration ?? (ctx.quick ? 10 : 60);
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("lat"), subs: 1,
    publisher: { batching: { maxMessages: 1 } } });
  try {
    const pay = payloadFn("1KB");
    await flow.paced({ ms: 1000, rate: RATE, payload: pay }); // warm-up
    await flow.drain(2000, 10000);
    const [[a, b], res] = await measuredPaced(ctx, flow, seconds, RATE, pay);
    const r = flowRow({ scenario: "latency", variant: `${RATE}/s`, flow, a, b, res, kind: "e2e",
      config: { rate: RATE, payload: "1KB", seconds, publisherBatching: { maxMessages: 1 } } });
    r.pass = r.lost === 0 && r.duplicates === 0 && r.errors === 0;
    r.criterion = "no loss, no duplicates, no errors (p99 documented)";
    return [r];
  } finally { await flow.close(); }
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["latency", ...process.argv.slice(2)]);

// Fan-out — routing efficiency. 1 topic × 50 subscriptions, 100 msg/s paced (5,000
// deliveries/s), one subscriber client (one connection) holding all 50 subscriptions with
// client defaults (up to 5 StreamingPull streams each). Latency is per delivery, e2e.
import { Flow, flowRow, measuredPaced, uniqueName } from "../lib/flow.ts";
import { payloadFn } from "../lib/payload.ts";
import type { Ctx, Row } from "../lib/report.ts";

export const about = "1 topic x 50 subs, 100 msg/s paced, e2e p99 per delivery";

const SUBS = 50;
const RATE = 100;

export async function run(ctx: Ctx): Promise<Row[]> {
  const seconds = ctx.duration ?? (ctx.quick ? 10 : 60);
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("fan"), subs: SUBS,
    publisher: { batching: { maxMessages: 1 } } });
  try {
    const pay = payloadFn("1KB");
    await flow.paced({ ms: 2000, rate: RATE, payload: pay }); // warm-up: all streams open
    await flow.drain(3000, 15000);
    const [[a, b], res] = await measuredPaced(ctx, flow, seconds, RATE, pay);
    const r = flowRow({ scenario: "fanout", variant: `${SUBS} subs`, flow, a, b, res, kind: "e2e",
      config: { subscriptions: SUBS, rate: RATE, payload: "1KB", seconds } });
    r.extra.perSubscription = flow.deliveries.map((d) => d.received);
    r.pass = (r.latency.p99 ?? Infinity) < 100 && r.lost === 0 && r.duplicates === 0 && r.errors === 0;
    r.criterion = "p99 e2e < 100 ms, no loss, no duplicates, no errors";
    return [r];
  } finally { await flow.close(); }
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["fanout", ...process.argv.slice(2)]);

// Throughput — the regression metric. 1 topic, 1 subscription, StreamingPull through the
// official client, immediate ack. Closed loop: at most WINDOW messages published but not
// yet received, so the rate is what the whole pipeline sustains without unbounded queues.
// Variants: "tuned" (flowControl.maxMessages 10,000, ack batching maxMilliseconds 10) and
// "defaults" (client defaults: 1,000 outstanding, 5 streams, ack batching 3,000/100 ms).
import { Flow, flowRow, measured, uniqueName } from "../lib/flow.ts";
import { payloadFn } from "../lib/payload.ts";
import type { Ctx, Row } from "../lib/report.ts";
import { median } from "../lib/stats.ts";

export const about = "1 topic, 1 sub, streaming pull, immediate ack; closed loop; tuned and default client";

export const WINDOW = 1000; // larger windows add queueing (client HTTP/2 starvation), not throughput
export const VARIANTS: Record<string, { subscriber: object }> = {
  tuned: { subscriber: { flowControl: { maxMessages: 10_000 }, batching: { maxMilliseconds: 10 } } },
  defaults: { subscriber: {} },
};

export async function once(ctx: Ctx, variant: string, warmS: number, measureS: number, payload = "1KB"): Promise<Row> {
  const v = VARIANTS[variant]!;
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("tp"), subs: 1, subscriber: v.subscriber });
  try {
    const pay = payloadFn(payload);
    await flow.closedLoop({ ms: warmS * 1000, window: WINDOW, payload: pay });
    flow.startMeasuring();
    const [[a, b], res] = await measured(ctx, async () => {
      const a = flow.mark();
      await flow.closedLoop({ ms: measureS * 1000, window: WINDOW, payload: pay });
      return [a, flow.mark()] as const;
    });
    const drained = await flow.drain();
    const r = flowRow({ scenario: "throughput", variant, flow, a, b, res, kind: "e2e",
      config: { payload, window: WINDOW, warmupS: warmS, measureS, subscriber: v.subscriber },
      extra: { drained } });
    r.pass = r.lost === 0 && r.duplicates === 0 && r.errors === 0;
    r.criterion = "no loss, no duplicates, no errors; msg/s is the baseline (±10 % across commits)";
    return r;
  } finally { await flow.close(); }
}

/** Closed-loop ceiling (msg/s) of the tuned client; saturation and soak are scaled from it. */
export async function ceiling(ctx: Ctx): Promise<number> {
  if (ctx.ceiling) return ctx.ceiling;
  ctx.log("measuring ceiling (throughput/tuned, closed loop)…");
  const r = await once(ctx, "tuned", ctx.quick ? 1 : 3, ctx.quick ? 4 : 10);
  ctx.ceiling = Math.round(r.msgsPerSec ?? 0);
  ctx.log(`ceiling ≈ ${ctx.ceiling} msg/s`);
  return ctx.ceiling;
}

export async function run(ctx: Ctx): Promise<Row[]> {
  const reps = ctx.repeat ?? (ctx.quick ? 1 : 5);
  const warm = ctx.quick ? 1 : 5;
  const meas = ctx.duration ?? (ctx.quick ? 5 : 10);
  const rows: Row[] = [];
  for (const variant of Object.keys(VARIANTS)) {
    const runs: Row[] = [];
    for (let i = 0; i < reps; i++) {
      const r = await once(ctx, variant, warm, meas);
      ctx.log(`throughput/${variant} #${i + 1}: ${Math.round(r.msgsPerSec ?? 0)} msg/s p99 ${r.latency.p99?.toFixed(1)} ms lost ${r.lost} dup ${r.duplicates}`);
      runs.push(r);
    }
    const rates = runs.map((r) => r.msgsPerSec ?? 0);
    const med = median(rates);
    const pick = runs.reduce((best, r) => (Math.abs((r.msgsPerSec ?? 0) - med) < Math.abs((best.msgsPerSec ?? 0) - med) ? r : best));
    if (reps > 1) {
      pick.extra.runsMsgsPerSec = rates.map(Math.round);
      pick.extra.spreadPct = ((Math.max(...rates) - Math.min(...rates)) / med) * 100;
      pick.lost = runs.reduce((s, r) => s + (r.lost ?? 0), 0);
      pick.duplicates = runs.reduce((s, r) => s + (r.duplicates ?? 0), 0);
      pick.pass = runs.every((r) => r.pass);
    }
    if (ctx.ceiling == null && variant === "tuned") ctx.ceiling = Math.round(med);
    rows.push(pick);
  }
  return rows;
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["throughput", ...process.argv.slice(2)]);

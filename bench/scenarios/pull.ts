// Unary Pull throughput through the raw GAPIC client (v1.SubscriberClient): Pull with
// max_messages 1,000, then Acknowledge of the whole batch (not awaited before the next
// Pull; at most 4 Acknowledge calls in flight per loop). Publishing is closed loop as in
// throughput. Variants: 1 and 4 concurrent Pull loops.
import { v1 } from "@google-cloud/pubsub";
import { Flow, flowRow, measured, uniqueName, withTimeout } from "../lib/flow.ts";
import { payloadFn } from "../lib/payload.ts";
import type { Ctx, Row } from "../lib/report.ts";

export const about = "unary Pull(1000) + Acknowledge via v1.SubscriberClient; 1 and 4 loops";

const WINDOW = 2000;
const MAX = 1000;

async function pullLoop(sc: v1.SubscriberClient, flow: Flow, until: () => boolean, stats: { pulls: number; empty: number; errors: number }) {
  const subscription = flow.subNames[0]!;
  const acks = new Set<Promise<unknown>>();
  while (!until()) {
    try {
      const [resp] = await sc.pull({ subscription, maxMessages: MAX }, { timeout: 15000 });
      stats.pulls++;
      const ids: string[] = [];
      for (const rm of resp.receivedMessages ?? []) {
        ids.push(rm.ackId!);
        flow.receive(0, rm.message?.attributes as Record<string, string>, rm.message?.data?.length ?? 0);
      }
      if (!ids.length) { stats.empty++; continue; }
      while (acks.size >= 4) await Promise.race(acks);
      const p = sc.acknowledge({ subscription, ackIds: ids }).catch(() => { stats.errors++; }).finally(() => acks.delete(p));
      acks.add(p);
    } catch { stats.errors++; }
  }
  await Promise.allSettled(acks);
}

/** One variant: `loops` concurrent Pull loops against one subscription (also bench compare's pull/1 loop). */
export async function once(ctx: Ctx, loops: number): Promise<Row> {
  const warm = ctx.quick ? 1 : 3;
  const meas = ctx.duration ?? (ctx.quick ? 5 : 10);
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("pull"), subs: 1, listen: false });
  const sc = new v1.SubscriberClient(await flow.pubClient.getClientConfig() as any);
  const stats = { pulls: 0, empty: 0, errors: 0 };
  let stop = false;
  const pullers = Array.from({ length: loops }, () => pullLoop(sc, flow, () => stop, stats));
  try {
    const pay = payloadFn("1KB");
    await flow.closedLoop({ ms: warm * 1000, window: WINDOW, payload: pay });
    flow.startMeasuring();
    const [[a, b], res] = await measured(ctx, async () => {
      const a = flow.mark();
      await flow.closedLoop({ ms: meas * 1000, window: WINDOW, payload: pay });
      return [a, flow.mark()] as const;
    });
    const drained = await flow.drain(5000, 30000);
    stop = true;
    await withTimeout(Promise.all(pullers), 20000, "pull loops").catch(() => {});
    const r = flowRow({ scenario: "pull", variant: `${loops} loop${loops > 1 ? "s" : ""}`, flow, a, b, res, kind: "e2e",
      config: { maxMessages: MAX, loops, window: WINDOW, payload: "1KB", warmupS: warm, measureS: meas },
      extra: { drained, pulls: stats.pulls, emptyPulls: stats.empty, pullErrors: stats.errors } });
    r.errors += stats.errors;
    r.pass = r.lost === 0 && r.duplicates === 0 && r.errors === 0;
    r.criterion = "no loss, no duplicates, no errors";
    return r;
  } finally {
    stop = true;
    await sc.close().catch(() => {});
    await flow.close();
  }
}

export async function run(ctx: Ctx): Promise<Row[]> {
  const rows: Row[] = [];
  for (const loops of [1, 4]) {
    const r = await once(ctx, loops);
    ctx.log(`pull/${loops}: ${Math.round(r.msgsPerSec ?? 0)} msg/s, ${r.extra.pulls} pulls, lost ${r.lost} dup ${r.duplicates}`);
    rows.push(r);
  }
  return rows;
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["pull", ...process.argv.slice(2)]);

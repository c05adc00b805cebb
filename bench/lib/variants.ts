// Single variants of the scenarios, for `bench compare`: one row each, on the server in ctx.
// They measure exactly what the scenario rows of the same name measure (same flow, window,
// warm-up and accounting; see scenarios/firehose.ts and scenarios/pull.ts), without the other
// variants, so that a compare round stays short.
//   throughput/tuned  → scenarios/throughput.ts once(ctx, "tuned", …)
//   firehose/1KB      → closed-loop publish, 0 subs, window 300 msgs / 2 MB
//   pull/1 loop       → unary Pull(1000) + Acknowledge through v1.SubscriberClient
import { v1 } from "@google-cloud/pubsub";
import { Flow, flowRow, measured, uniqueName, withTimeout } from "./flow.ts";
import { meanBytes, payloadFn } from "./payload.ts";
import type { Ctx, Row } from "./report.ts";
import { once as throughputOnce } from "../scenarios/throughput.ts";

export interface Variant {
  /** Row key, `scenario/variant` as in run.ts tables. */
  id: string;
  scenario: string;
  run(ctx: Ctx): Promise<Row>;
}

const warmS = (ctx: Ctx) => (ctx.quick ? 1 : 3);

export const VARIANTS: Record<string, Variant> = {
  throughput: {
    id: "throughput/tuned", scenario: "throughput",
    run: (ctx) => throughputOnce(ctx, "tuned", ctx.quick ? 1 : 5, ctx.duration ?? (ctx.quick ? 5 : 10)),
  },
  firehose: { id: "firehose/1KB", scenario: "firehose", run: (ctx) => firehose(ctx, "1KB") },
  pull: { id: "pull/1 loop", scenario: "pull", run: (ctx) => pull(ctx, 1) },
};

const FH_WINDOW = 300, FH_WINDOW_BYTES = 2 * 2 ** 20;

export async function firehose(ctx: Ctx, payload: string): Promise<Row> {
  const meas = ctx.duration ?? (ctx.quick ? 3 : 10);
  Bun.gc(true);
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("fh"), subs: 0 });
  try {
    const pay = payloadFn(payload);
    const loop = (ms: number) => flow.closedLoop({ ms, window: FH_WINDOW, windowBytes: FH_WINDOW_BYTES, payload: pay });
    await loop(warmS(ctx) * 1000);
    await flow.drain(5000, 30000);
    flow.startMeasuring();
    const [[a, b], res] = await measured(ctx, async () => {
      const a = flow.mark();
      await loop(meas * 1000);
      await flow.drain(5000, 30000);
      return [a, flow.mark()] as const;
    });
    const r = flowRow({ scenario: "firehose", variant: payload, flow, a, b, res, kind: "publish",
      config: { payload, meanBytes: meanBytes(payload), window: FH_WINDOW, windowBytes: FH_WINDOW_BYTES, warmupS: warmS(ctx), measureS: meas } });
    r.pass = r.errors === 0;
    r.criterion = "no errors";
    return r;
  } finally { await flow.close(); }
}

const PULL_WINDOW = 2000, PULL_MAX = 1000;

export async function pull(ctx: Ctx, loops: number): Promise<Row> {
  const meas = ctx.duration ?? (ctx.quick ? 5 : 10);
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("pull"), subs: 1, listen: false });
  const sc = new v1.SubscriberClient(await flow.pubClient.getClientConfig() as any);
  const stats = { pulls: 0, empty: 0, errors: 0 };
  let stop = false;
  const subscription = flow.subNames[0]!;
  const pullLoop = async () => {
    const acks = new Set<Promise<unknown>>();
    while (!stop) {
      try {
        const [resp] = await sc.pull({ subscription, maxMessages: PULL_MAX }, { timeout: 15000 });
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
  };
  const pullers = Array.from({ length: loops }, pullLoop);
  try {
    const pay = payloadFn("1KB");
    await flow.closedLoop({ ms: warmS(ctx) * 1000, window: PULL_WINDOW, payload: pay });
    flow.startMeasuring();
    const [[a, b], res] = await measured(ctx, async () => {
      const a = flow.mark();
      await flow.closedLoop({ ms: meas * 1000, window: PULL_WINDOW, payload: pay });
      return [a, flow.mark()] as const;
    });
    const drained = await flow.drain(5000, 30000);
    stop = true;
    await withTimeout(Promise.all(pullers), 20000, "pull loops").catch(() => {});
    const r = flowRow({ scenario: "pull", variant: `${loops} loop${loops > 1 ? "s" : ""}`, flow, a, b, res, kind: "e2e",
      config: { maxMessages: PULL_MAX, loops, window: PULL_WINDOW, payload: "1KB", warmupS: warmS(ctx), measureS: meas },
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

// Single variants of the scenarios, for `bench compare`: one row each, on the server in ctx.
// Each runs the scenario's own once() (same flow, window, warm-up and accounting as the
// scenario row of the same name), without the other variants, so that a compare round
// stays short.
//   throughput/tuned  → scenarios/throughput.ts once(ctx, "tuned", …)
//   firehose/1KB      → scenarios/firehose.ts once(ctx, "1KB"), criterion "no errors"
//   pull/1 loop       → scenarios/pull.ts once(ctx, 1)
import type { Ctx, Row } from "./report.ts";
import { once as firehoseOnce } from "../scenarios/firehose.ts";
import { once as pullOnce } from "../scenarios/pull.ts";
import { once as throughputOnce } from "../scenarios/throughput.ts";

export interface Variant {
  /** Row key, `scenario/variant` as in run.ts tables. */
  id: string;
  scenario: string;
  run(ctx: Ctx): Promise<Row>;
}

export const VARIANTS: Record<string, Variant> = {
  throughput: {
    id: "throughput/tuned", scenario: "throughput",
    run: (ctx) => throughputOnce(ctx, "tuned", ctx.quick ? 1 : 5, ctx.duration ?? (ctx.quick ? 5 : 10)),
  },
  firehose: { id: "firehose/1KB", scenario: "firehose", run: (ctx) => firehose(ctx, "1KB") },
  pull: { id: "pull/1 loop", scenario: "pull", run: (ctx) => pullOnce(ctx, 1) },
};

/** firehose's row with the criterion compare uses: no errors (the p99 limit is lib/runner.ts's). */
export async function firehose(ctx: Ctx, payload: string, window?: number, batch?: number): Promise<Row> {
  const r = await firehoseOnce(ctx, payload, false, window, batch ? { batching: { maxMessages: batch, maxBytes: 9 * 2 ** 20 } } : undefined);
  r.pass = r.errors === 0;
  r.criterion = "no errors";
  return r;
}

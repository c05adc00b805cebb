// Ordering — 8 ordering keys, uniform (key = seq mod 8), publisher messageOrdering on,
// subscription enable_message_ordering on, streaming pull with immediate ack, closed loop.
// A first receipt whose per-key sequence is below the highest already seen for that key
// is an order violation.
import { Flow, flowRow, measured, uniqueName } from "../lib/flow.ts";
import { payloadFn } from "../lib/payload.ts";
import type { Ctx, Row } from "../lib/report.ts";

export const about = "8 ordering keys, ordered publish + ordered subscription, order violations counted";

const KEYS = 8;
const WINDOW = 1000;

export async function run(ctx: Ctx): Promise<Row[]> {
  const warm = ctx.quick ? 1 : 3;
  const meas = ctx.duration ?? (ctx.quick ? 5 : 10);
  const high = new Array<number>(KEYS).fill(-1);
  let violations = 0;
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("ord"), subs: 1, ordered: true,
    subscriber: { flowControl: { maxMessages: 10_000 }, batching: { maxMilliseconds: 10 } },
    onFirst: (_m, _i, seq) => {
      const k = seq % KEYS, ks = Math.floor(seq / KEYS);
      if (ks < high[k]!) violations++; else high[k] = ks;
    } });
  try {
    const pay = payloadFn("1KB");
    const key = (seq: number) => `key-${seq % KEYS}`;
    await flow.closedLoop({ ms: warm * 1000, window: WINDOW, payload: pay, key });
    flow.startMeasuring();
    const [[a, b], res] = await measured(ctx, async () => {
      const a = flow.mark();
      await flow.closedLoop({ ms: meas * 1000, window: WINDOW, payload: pay, key });
      return [a, flow.mark()] as const;
    });
    const drained = await flow.drain(5000, 30000);
    const r = flowRow({ scenario: "ordering", variant: `${KEYS} keys`, flow, a, b, res, kind: "e2e",
      config: { keys: KEYS, window: WINDOW, payload: "1KB", warmupS: warm, measureS: meas }, extra: { drained, orderViolations: violations } });
    r.pass = violations === 0 && r.lost === 0 && r.duplicates === 0 && r.errors === 0;
    r.criterion = "0 order violations, no loss, no duplicates, no errors";
    ctx.log(`ordering: ${Math.round(r.msgsPerSec ?? 0)} msg/s, violations ${violations}, lost ${r.lost}, dup ${r.duplicates}`);
    return [r];
  } finally { await flow.close(); }
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["ordering", ...process.argv.slice(2)]);

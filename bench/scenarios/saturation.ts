// Saturation — offered load stepped from 50 % to 110 % of the measured closed-loop ceiling
// (throughput/tuned, or --ceiling), open loop, e2e latency per step. The saturation point
// is the last step before p99 turns from linear to exponential growth:
//   step i inflects if p99_i > 2 × max(p99_{i-1}, linear extrapolation of steps i-2, i-1)
//   and p99_i > 4 × p99 of the first (50 %) step, or if the subscriber kept < 95 % of the
//   offered rate;
//   a jump that later steps fall back from (p99_j < p99_i / 2) is noise, not an inflection.
// If no step inflects by 110 %, the ceiling was an underestimate and steps continue at
// 125, 150 and 200 % (marked "ext").
import { Flow, flowRow, measured, uniqueName } from "../lib/flow.ts";
import { payloadFn } from "../lib/payload.ts";
import type { Ctx, Row } from "../lib/report.ts";
import { ceiling } from "./throughput.ts";

export const about = "offered load 50→110 % of ceiling, p99 per step, inflection point";

export function inflection(steps: { offered: number; achieved: number; p99: number }[]): number {
  for (let i = 1; i < steps.length; i++) {
    const s = steps[i]!, p = steps[i - 1]!;
    if (s.achieved < 0.95 * s.offered) return i;
    const lin = i >= 2 ? p.p99 + ((p.p99 - steps[i - 2]!.p99) / (p.offered - steps[i - 2]!.offered)) * (s.offered - p.offered) : p.p99;
    const persists = steps.slice(i + 1).every((later) => later.p99 >= s.p99 / 2);
    if (s.p99 > 2 * Math.max(p.p99, lin) && s.p99 > 4 * steps[0]!.p99 && persists) return i;
  }
  if (steps[0] && steps[0].achieved < 0.95 * steps[0].offered) return 0;
  return -1;
}

export async function run(ctx: Ctx): Promise<Row[]> {
  const ceil = await ceiling(ctx);
  const fractions = ctx.quick ? [0.5, 0.75, 0.9, 1.0, 1.1] : [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1];
  const stepS = ctx.duration ?? (ctx.quick ? 4 : 15);
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("sat"), subs: 1,
    subscriber: { flowControl: { maxMessages: 10_000 }, batching: { maxMilliseconds: 10 } } });
  const rows: Row[] = [];
  const steps: { offered: number; achieved: number; p99: number }[] = [];
  try {
    const pay = payloadFn("1KB");
    await flow.paced({ ms: 1000, rate: Math.round(ceil * 0.3), payload: pay }); // warm-up
    await flow.drain(3000, 15000);
    const planned = fractions.length;
    for (let n = 0; n < fractions.length; n++) {
      const fr = fractions[n]!;
      const rate = Math.round(ceil * fr);
      Bun.gc(true);
      flow.startMeasuring();
      const [[a, b, out], res] = await measured(ctx, async () => {
        const a = flow.mark();
        const out = await flow.paced({ ms: stepS * 1000, rate, payload: pay, maxOutstanding: rate * 5 });
        return [a, flow.mark(), out] as const;
      });
      const drained = await flow.drain(3000, 20000);
      const r = flowRow({ scenario: "saturation", variant: `${Math.round(fr * 100)}% ${rate}/s`, flow, a, b, res, kind: "e2e",
        config: { ceiling: ceil, fraction: fr, offered: rate, stepS, payload: "1KB" },
        extra: { offered: rate, stoppedEarly: out.stoppedEarly, drained } });
      const p99 = r.latency.p99 ?? Infinity;
      const achieved = out.stoppedEarly ? 0 : r.msgsPerSec ?? 0;
      steps.push({ offered: rate, achieved, p99 });
      ctx.log(`saturation ${Math.round(fr * 100)}%: offered ${rate}/s achieved ${Math.round(r.msgsPerSec ?? 0)}/s p99 ${p99.toFixed(1)} ms${out.stoppedEarly ? " (backlog > 5 s, step cut short)" : ""}`);
      if (n >= planned) r.variant += " ext";
      rows.push(r);
      if (out.stoppedEarly) break;
      if (n === fractions.length - 1 && fr < 2 && inflection(steps) === -1) fractions.push(fr < 1.25 ? 1.25 : fr < 1.5 ? 1.5 : 2);
    }
    const i = inflection(steps);
    const point = i === -1 ? null : i === 0 ? 0 : steps[i - 1]!.offered;
    const note = i === -1 ? `no inflection up to ${Math.round(fractions[fractions.length - 1]! * 100)} % of ceiling ${ceil}/s`
      : `inflection at step ${i + 1} (${steps[i]!.offered}/s); saturation point ≈ ${point}/s (${Math.round((point! / ceil) * 100)} % of ceiling ${ceil}/s)`;
    ctx.log(note);
    for (const r of rows) { r.extra.saturationPoint = point; r.extra.saturationNote = note; }
    // Losses are counted over the whole scenario: only the last row carries them.
    for (const r of rows.slice(0, -1)) { r.lost = null; r.duplicates = null; }
    return rows;
  } finally { await flow.close(); }
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["saturation", ...process.argv.slice(2)]);

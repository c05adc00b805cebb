// Soak — memory stability. Open-loop publish at 50 % of the measured ceiling (or
// --ceiling) for --duration seconds, 1 subscription, immediate ack. Server RSS is sampled
// every second. Warm-up = the first max(10 s, 20 %) of the run; baseline = median RSS of
// the next 10 % of samples; end = median of the last 10 %. Pass if growth < 10 %.
import { Flow, flowRow, uniqueName } from "../lib/flow.ts";
import { Monitor } from "../lib/monitor.ts";
import { payloadFn } from "../lib/payload.ts";
import type { Ctx, Row } from "../lib/report.ts";
import { median } from "../lib/stats.ts";
import { ceiling } from "./throughput.ts";

export const about = "50 % of ceiling for --duration s; RSS growth after warm-up plateau < 10 %";

export function growth(samples: { t: number; v: number }[], durationS: number) {
  if (samples.length < 10) return null;
  const t0 = samples[0]!.t;
  const warmS = Math.max(10, durationS * 0.2);
  const post = samples.filter((s) => (s.t - t0) / 1000 >= warmS);
  if (post.length < 10) return null;
  const k = Math.max(3, Math.floor(post.length * 0.1));
  const base = median(post.slice(0, k).map((s) => s.v));
  const end = median(post.slice(-k).map((s) => s.v));
  // least-squares slope over the post-warm-up samples, MB per minute
  const xs = post.map((s) => (s.t - t0) / 60000), ys = post.map((s) => s.v / 2 ** 20);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length, my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0, den = 0;
  for (let i = 0; i < xs.length; i++) { num += (xs[i]! - mx) * (ys[i]! - my); den += (xs[i]! - mx) ** 2; }
  return { warmS, baseMB: base / 2 ** 20, endMB: end / 2 ** 20, growthPct: ((end - base) / base) * 100, slopeMBPerMin: den ? num / den : 0 };
}

export async function run(ctx: Ctx): Promise<Row[]> {
  const ceil = await ceiling(ctx);
  const rate = Math.max(1, Math.round(ceil * 0.5));
  const seconds = ctx.duration ?? (ctx.quick ? 30 : 300);
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("soak"), subs: 1,
    subscriber: { flowControl: { maxMessages: 10_000 }, batching: { maxMilliseconds: 10 } } });
  try {
    const pay = payloadFn("1KB");
    Bun.gc(true);
    const mon = await new Monitor(ctx.server, 1000, true).start();
    const a = flow.mark();
    const out = await flow.paced({ ms: seconds * 1000, rate, payload: pay, maxOutstanding: rate * 10 });
    const drained = await flow.drain(5000, 30000);
    const b = flow.mark();
    const res = await mon.stop();
    const rss = res.samples.filter((s) => s.rssBytes != null).map((s) => ({ t: s.t, v: s.rssBytes! }));
    const heap = res.samples.filter((s) => s.heapUsedBytes != null).map((s) => ({ t: s.t, v: s.heapUsedBytes! }));
    const g = growth(rss, seconds), gh = growth(heap, seconds);
    const r = flowRow({ scenario: "soak", variant: `${seconds}s @${rate}/s`, flow, a, b, res, kind: "e2e",
      config: { ceiling: ceil, rate, seconds, payload: "1KB" },
      extra: { stoppedEarly: out.stoppedEarly, drained, rssGrowthPct: g?.growthPct ?? null, rssBaseMB: g?.baseMB ?? null, rssEndMB: g?.endMB ?? null,
        rssSlopeMBPerMin: g?.slopeMBPerMin ?? null, heapGrowthPct: gh?.growthPct ?? null, warmupS: g?.warmS ?? null,
        rssSeriesMB: rss.map((s) => +(s.v / 2 ** 20).toFixed(1)), heapSeriesMB: heap.map((s) => +(s.v / 2 ** 20).toFixed(1)) } });
    r.pass = g == null ? null : g.growthPct < 10 && !out.stoppedEarly && r.lost === 0 && r.errors === 0;
    r.criterion = g == null ? "server RSS unknown or run too short: growth not judged" : "RSS growth < 10 % after warm-up, no loss, no errors, kept the rate";
    ctx.log(`soak: ${rate}/s for ${seconds}s, RSS ${g ? `${g.baseMB.toFixed(0)} → ${g.endMB.toFixed(0)} MB (${g.growthPct.toFixed(1)} %, ${g.slopeMBPerMin.toFixed(2)} MB/min)` : "unknown"}, lost ${r.lost}, dup ${r.duplicates}`);
    return [r];
  } finally { await flow.close(); }
}

if (import.meta.main) await (await import("../run.ts")).main(["soak", ...process.argv.slice(2)]);

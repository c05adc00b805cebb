// Soak — does the server stay flat under steady mixed traffic? For --duration seconds: open-loop
// publishing of 1 KiB messages at a fixed rate (half of --ceiling, else 1,000 msg/s) through the
// official client; a StreamingPull subscriber acking everything; a second subscription read by
// unary Pull with acks and nacks, snapshot seeks every 30 s; resource churn every 5 s
// (bench/lib/soak-traffic.ts). Every interval (60 s; shorter runs: an eighth of the run, at least
// 10 s) a row: server RSS, JS heap, open fds, WAL + message body files (--stores data-dir), messages, e2e p50/p99.
// Drift = median of the last quarter's rows against the first quarter's. Pass: RSS drift < 10 %,
// p99 drift < 20 %, nothing lost, no errors.
import { Flow, uniqueName } from "../lib/flow.ts";
import { Monitor } from "../lib/monitor.ts";
import { payloadFn } from "../lib/payload.ts";
import { row, type Ctx, type Row } from "../lib/report.ts";
import { Latencies, median, sleep } from "../lib/stats.ts";
import { SideTraffic } from "../lib/soak-traffic.ts";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const about = "mixed traffic for --duration s; per-minute RSS/heap/fds/WAL/p99; drift last vs first quarter";

interface Interval {
  min: number; published: number; streamed: number; pulled: number;
  rssMB: number | null; heapMB: number | null; fds: number | null; walMB: number | null;
  p50: number | null; p99: number | null; pullP99: number | null; errors: number;
}

export function drift(rows: Interval[], f: (r: Interval) => number | null): number | null {
  const q = Math.max(1, Math.floor(rows.length / 4));
  const first = rows.slice(0, q).map(f).filter((v): v is number => v != null);
  const last = rows.slice(-q).map(f).filter((v): v is number => v != null);
  if (!first.length || !last.length) return null;
  const a = median(first), b = median(last);
  return a > 0 ? ((b - a) / a) * 100 : null;
}

const fix = (v: number | null, d = 1) => (v == null ? "-" : v.toFixed(d));

export function intervalTable(rows: Interval[]): string {
  const head = ["min", "published", "streamed", "pulled", "RSS MB", "heap MB", "fds", "WAL+bodies MB", "p50 ms", "p99 ms", "pull p99", "errors"];
  const body = rows.map((r) => [fix(r.min, 1), String(r.published), String(r.streamed), String(r.pulled), fix(r.rssMB), fix(r.heapMB), r.fds == null ? "-" : String(r.fds),
    fix(r.walMB), fix(r.p50, 2), fix(r.p99, 2), fix(r.pullP99, 1), String(r.errors)]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  return [head, w.map((n) => "-".repeat(n)), ...body].map((cells) => cells.map((c, i) => c.padStart(w[i]!)).join("  ")).join("\n");
}

export async function run(ctx: Ctx): Promise<Row[]> {
  const seconds = ctx.duration ?? (ctx.quick ? 60 : 300);
  const rate = ctx.ceiling ? Math.max(1, Math.round(ctx.ceiling * 0.5)) : 1000;
  const everyMs = Math.min(60_000, Math.max(10_000, (seconds * 1000) / 8));
  // The WAL and the message body segments (src/persistence/bodies.ts): what grows with traffic.
  const walMB = () => {
    if (!ctx.dataDir) return null;
    let bytes = 0;
    for (const f of readdirSync(ctx.dataDir)) {
      if (f !== "pubsub-emulator.sqlite-wal" && !f.startsWith("pubsub-emulator.body.")) continue;
      try { bytes += statSync(join(ctx.dataDir, f)).size; } catch {}
    }
    return bytes / 2 ** 20;
  };
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("soak"), subs: 1,
    subscriber: { flowControl: { maxMessages: 10_000 }, batching: { maxMilliseconds: 10 } } });
  const side = await SideTraffic.start(ctx.target, flow);
  const mon = await new Monitor(ctx.server, 5000).start();
  const rows: Interval[] = [];
  try {
    const pay = payloadFn("1KB");
    const t0 = performance.now();
    let last = { acked: 0, streamed: 0, pulled: 0, errors: 0 };
    let rowStart = Date.now();
    for (const line of intervalTable([]).split("\n")) ctx.log(line);
    const paced = flow.paced({ ms: seconds * 1000, rate, payload: pay, maxOutstanding: rate * 30 });
    let done = false;
    void paced.finally(() => (done = true));
    while (!done) {
      const next = t0 + (rows.length + 1) * everyMs;
      while (!done && performance.now() < next) await sleep(Math.min(250, next - performance.now()));
      if (done && performance.now() - (t0 + rows.length * everyMs) < everyMs / 2) break; // a short tail is no row
      const s = await mon.sampleNow();
      // One RSS reading lands anywhere in a collection cycle (±10 MB here), so a row's RSS is the
      // median of the 5 s samples over its interval, which the quarters' drift is taken from.
      const rssSamples = [...mon.since(rowStart), s].flatMap((x) => (x.rssBytes == null ? [] : [x.rssBytes]));
      const rowRss = rssSamples.length ? median(rssSamples) : null;
      rowStart = Date.now();
      const e2e = flow.e2e.summary(), pull = side.pullLat.summary();
      flow.e2e = new Latencies();
      side.pullLat = new Latencies();
      const errors = flow.pubErrors + flow.subErrors + side.errorCount;
      const now = { acked: flow.ackedCount, streamed: flow.uniqueTotal, pulled: side.pulled.received, errors };
      rows.push({ min: (performance.now() - t0) / 60_000, published: now.acked - last.acked, streamed: now.streamed - last.streamed, pulled: now.pulled - last.pulled,
        rssMB: rowRss == null ? null : rowRss / 2 ** 20, heapMB: s.heapUsedBytes == null ? null : s.heapUsedBytes / 2 ** 20, fds: s.fds, walMB: walMB(),
        p50: e2e.p50, p99: e2e.p99, pullP99: pull.p99, errors: now.errors - last.errors });
      last = now;
      ctx.log(intervalTable(rows).split("\n").at(-1)!);
    }
    const out = await paced;
    await flow.drain(5000, 60_000);
    await side.drain(60_000);
    const res = await mon.stop();
    const { lost, dup } = flow.losses();
    const pullLost = side.pulled.lost(flow.acked);
    const errors = flow.pubErrors + flow.subErrors + side.errorCount;
    const rss = drift(rows, (r) => r.rssMB), p99 = drift(rows, (r) => r.p99), p50 = drift(rows, (r) => r.p50), heap = drift(rows, (r) => r.heapMB), fds = drift(rows, (r) => r.fds), walD = drift(rows, (r) => r.walMB);
    const text = intervalTable(rows);
    ctx.log(`soak: ${rate}/s for ${seconds} s, ${rows.length} rows of ${everyMs / 1000} s; drift last vs first quarter: RSS ${fix(rss)} %, p99 ${fix(p99)} % (p50 ${fix(p50)} %), heap ${fix(heap)} %, fds ${fix(fds)} %${ctx.dataDir ? `, WAL ${fix(walD)} %` : ""}; lost ${lost} + ${pullLost} (unary), errors ${errors}; ${side.nacks} nacks, ${side.seeks} seeks, ${side.churned} churn cycles`);
    const { samples: _s, ...resources } = res;
    const r = row({ scenario: "soak", variant: `${seconds}s @${rate}/s mixed`, config: { rate, seconds, payload: "1KB", intervalS: everyMs / 1000 },
      messages: flow.ackedCount, seconds: res.wallS, latencyKind: "e2e", resources, lost: lost + pullLost, duplicates: dup + side.pulled.duplicates,
      errors, errorKinds: { ...flow.errors, ...side.errors },
      extra: { stoppedEarly: out.stoppedEarly, rssDriftPct: rss, p99DriftPct: p99, p50DriftPct: p50, heapDriftPct: heap, fdsDriftPct: fds, walDriftPct: walD,
        nacks: side.nacks, seeks: side.seeks, churnCycles: side.churned, intervals: rows, intervalTable: text } });
    r.latency = { ...r.latency, p99: median(rows.map((x) => x.p99).filter((v): v is number => v != null)), p50: median(rows.map((x) => x.p50).filter((v): v is number => v != null)) };
    r.pass = rss == null || p99 == null ? null : rss < 10 && p99 < 20 && r.lost === 0 && errors === 0 && !out.stoppedEarly;
    r.criterion = "RSS drift < 10 %, p99 drift < 20 % (median of the last quarter's rows vs the first's), no loss, no errors, kept the rate";
    return [r];
  } finally {
    await side.stop();
    await flow.close();
  }
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["soak", ...process.argv.slice(2)]);

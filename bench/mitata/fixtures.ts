/**
 * Shared inputs for the micro-benchmarks: deterministic payloads, publish batches, stored
 * messages and deliveries, and brokers on a ManualClock. Not a benchmark itself.
 */
import { do_not_optimize, run } from "mitata";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock, type Clock } from "../../src/core/clock.ts";
import type { Delivery, MessageInput, StoredMessage } from "../../src/core/message.ts";

export const PROJECT = "projects/bench";
export const TOPIC = `${PROJECT}/topics/bench-topic`;
export const subName = (i: number) => `${PROJECT}/subscriptions/bench-sub-${i}`;

/** A deterministic PRNG (mulberry32), so every run benches the same inputs. */
export function prng(seed = 0x5eed): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function payload(bytes: number, seed = 1): Buffer {
  const rnd = prng(seed);
  const b = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) b[i] = (rnd() * 256) | 0;
  return b;
}

export function shuffled<T>(xs: readonly T[], seed = 7): T[] {
  const rnd = prng(seed);
  const out = xs.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** `n` messages of `bytes` data each (distinct buffers), no attributes. */
export function dataBatch(n: number, bytes: number): MessageInput[] {
  return Array.from({ length: n }, (_, i) => ({ data: payload(bytes, i + 1) }));
}

/** `n` messages with `attrs` ASCII attributes each (keys ~8 B, values ~16 B) and 64 B of data. */
export function attributeBatch(n: number, attrs: number): MessageInput[] {
  return Array.from({ length: n }, (_, i) => {
    const attributes: Record<string, string> = {};
    for (let k = 0; k < attrs; k++) attributes[`attr_${k}`] = `value-${i}-${k}`.padEnd(16, "x");
    return { data: payload(64, i + 1), attributes };
  });
}

/** The attributes the filter bench keys on; a quarter of messages match the 3-clause filter. */
export function filterAttributes(i: number): Record<string, string> {
  const a: Record<string, string> = {
    type: i % 2 === 0 ? "order" : "refund",
    customer: i % 4 < 2 ? `cust-${i}` : `test-${i}`,
    source: "web",
    version: "3",
    trace: `t-${i.toString(16).padStart(8, "0")}`,
  };
  if (i % 8 !== 7) a.region = i % 3 === 0 ? "eu" : "us";
  return a;
}

export function storedMessages(n: number, bytes: number, attrs: (i: number) => Record<string, string> = () => ({})): StoredMessage[] {
  const data = payload(bytes);
  return Array.from({ length: n }, (_, i) => ({
    id: String(10_000_000 + i),
    seq: 10_000_000 + i,
    data,
    attributes: attrs(i),
    orderingKey: "",
    publishTime: 1_700_000_000_123 + i,
    size: bytes,
  }));
}

/** What a Pull of 1000 looks like to the encoder: 1 KiB + 2 attributes per message. */
export function deliveries(n: number, bytes = 1024): Delivery[] {
  return storedMessages(n, bytes, (i) => ({ type: "order", region: i % 2 ? "eu" : "us" })).map((message, i) => ({
    ackId: (1_000_000 + i).toString(36),
    message,
    deliveryAttempt: 1,
  }));
}

/** A clock whose timers never fire: heap benches measure the heap, not a timer implementation. */
export const nullClock: Clock = { now: () => 1_700_000_000_000, schedule: () => null, cancel: () => {} };

/** A broker on a ManualClock with one topic and `subs` subscriptions (optionally filtered). */
export function brokerWith(subs: number, filter = ""): Broker {
  const broker = new Broker({ clock: new ManualClock() });
  broker.topics.create({ name: TOPIC, labels: {} });
  for (let i = 0; i < subs; i++) {
    broker.subscriptions.create({ name: subName(i), topic: TOPIC, filter } as Parameters<Broker["subscriptions"]["create"]>[0]);
  }
  return broker;
}

/**
 * A benchmark whose every sample needs fresh state (a broker with a backlog, leased messages).
 * `setup` runs untimed before each sample; only `fn` is timed (Bun.nanoseconds).
 *
 * Why not a mitata computed parameter: when one iteration takes under 65 µs mitata batches
 * 4096 iterations per sample and computes all 4096 parameters first, i.e. 4096 brokers with
 * 1000 leases each held live at once; the GC then dominates the figure (ack 1000 measured
 * ~160 µs that way vs ~35 µs unbatched). mitata's `{ manual }` yield (lib.mjs in 1.0.34; not
 * in its README) never batches, so one fixture is alive at a time.
 */
export function fresh<S>(setup: () => S, fn: (s: S) => unknown) {
  return function* () {
    yield {
      manual(): number {
        const s = setup();
        const t0 = Bun.nanoseconds();
        do_not_optimize(fn(s));
        return Bun.nanoseconds() - t0;
      },
    };
  };
}

/** fresh() for an async timed part. */
export function freshAsync<S>(setup: () => S, fn: (s: S) => Promise<unknown>) {
  return function* () {
    yield {
      async manual(): Promise<number> {
        const s = setup();
        const t0 = Bun.nanoseconds();
        do_not_optimize(await fn(s));
        return Bun.nanoseconds() - t0;
      },
    };
  };
}

export function assert(cond: unknown, what: string): asserts cond {
  if (!cond) throw new Error(`bench fixture check failed: ${what}`);
}

/** One benchmark's figures as all.ts stores them (nanoseconds per iteration). */
export interface BenchResult {
  group: string | null;
  name: string;
  avg: number;
  min: number;
  p25: number;
  p50: number;
  p75: number;
  p99: number;
  max: number;
  samples: number;
  ticks: number;
  /** Estimated heap bytes allocated per iteration (mitata's bun:jsc reading), when measured. */
  heapAvg: number | null;
  error?: string;
}

/**
 * Runs the benchmarks the file registered. Standalone it prints mitata's report; under all.ts
 * (MITATA_OUT set) it also writes the figures there as JSON, without colours in the report.
 */
export async function main(): Promise<void> {
  const out = process.env.MITATA_OUT;
  const res = await run(out ? { colors: false } : {});
  if (!out) return;
  const layout = (res as unknown as { layout: { name: string | null }[] }).layout;
  const results: BenchResult[] = [];
  for (const trial of res.benchmarks) {
    const group = layout[(trial as unknown as { group: number }).group]?.name ?? null;
    for (const r of trial.runs) {
      if (!r.stats) {
        results.push({ group, name: r.name, avg: NaN, min: NaN, p25: NaN, p50: NaN, p75: NaN, p99: NaN, max: NaN, samples: 0, ticks: 0, heapAvg: null, error: String((r.error as Error)?.message ?? r.error) });
        continue;
      }
      const s = r.stats;
      results.push({
        group,
        name: r.name,
        avg: s.avg,
        min: s.min,
        p25: s.p25,
        p50: s.p50,
        p75: s.p75,
        p99: s.p99,
        max: s.max,
        samples: s.samples.length,
        ticks: s.ticks,
        heapAvg: s.heap ? s.heap.avg : null,
      });
    }
  }
  // mitata's context also holds its noop calibration runs with every sample: keep the summary only.
  const c = res.context as { cpu: unknown; arch: unknown; runtime: unknown; version?: unknown; now: number };
  const context = { cpu: c.cpu, arch: c.arch, runtime: c.runtime, version: c.version, now: c.now };
  await Bun.write(out, JSON.stringify({ context, results }));
}

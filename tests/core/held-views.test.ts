/** Held messages' data stay views into their request for a second at most, accounted meanwhile. */
import { expect, test } from "bun:test";
import { ManualClock } from "../../src/core/clock.ts";
import { HeldViews, VIEW_CAP, VIEW_MS, type ViewHolder } from "../../src/core/store/held-views.ts";
import { MemoryBudget } from "../../src/core/memory-budget.ts";

/** Views kept on a manual clock; `collect` counts the collections asked for. */
function started(collect?: () => void) {
  const clock = new ManualClock();
  const v = new HeldViews();
  v.start(clock, collect);
  return { clock, v };
}

/** `n` one-kilobyte messages as views into one request buffer of n KiB + 100 bytes. */
function request(n: number): ViewHolder[] {
  const buf = Buffer.alloc(n * 1024 + 100);
  return Array.from({ length: n }, (_, i) => ({ data: buf.subarray(100 + i * 1024, 100 + (i + 1) * 1024), views: null }));
}

test("one request is one group; its buffer is let go the moment its last message is", () => {
  const { clock, v } = started();
  const a = request(3);
  for (const m of a) v.held(m);
  expect(v.pinnedBytes).toBe(100);
  v.released(a[0]!);
  v.released(a[1]!);
  expect(v.pinnedBytes).toBe(100 + 2048);
  v.released(a[2]!);
  expect(v.pinnedBytes).toBe(0);
  clock.advance(VIEW_MS);
  expect(a.every((m) => m.data.buffer.byteLength === 3 * 1024 + 100)).toBe(true); // never copied
});

test("survivors are copied out at VIEW_MS, each into a buffer of its own, bytes unchanged", () => {
  const { clock, v } = started();
  const a = request(2);
  a[1]!.data.fill(7);
  for (const m of a) v.held(m);
  clock.advance(500);
  const b = request(2);
  for (const m of b) v.held(m);
  v.released(a[0]!);
  clock.advance(VIEW_MS - 500);
  expect(a[1]!.data.buffer.byteLength).toBe(1024);
  expect(a[1]!.data.every((x) => x === 7)).toBe(true);
  expect(a[0]!.data.buffer.byteLength).toBe(2 * 1024 + 100); // let go before: not copied
  expect(b[0]!.data.buffer.byteLength).toBe(2 * 1024 + 100); // its second has not passed
  expect(v.pinnedBytes).toBe(100);
  clock.advance(500);
  expect(b.every((m) => m.data.buffer.byteLength === 1024)).toBe(true);
  expect(v.pinnedBytes).toBe(0);
  v.released(a[1]!); // after the copy, a release changes nothing
  expect(v.pinnedBytes).toBe(0);
});

test("data that are most of their buffer, or held without a timer, are never left pinning", () => {
  const v = new HeldViews();
  const big = { data: Buffer.alloc(1000).subarray(0, 600), views: null };
  v.held(big);
  expect(big.data.buffer.byteLength).toBe(1000);
  const [small] = request(2);
  v.held(small!);
  expect(small!.data.buffer.byteLength).toBe(1024);
  expect(v.pinnedBytes).toBe(0);
});

test("a message held again after a release joins a group again; stop() copies out what is left", () => {
  const { clock, v } = started();
  const a = request(2);
  for (const m of a) v.held(m);
  v.released(a[0]!);
  v.held(a[0]!);
  expect(v.pinnedBytes).toBe(100);
  v.stop();
  expect(a.every((m) => m.data.buffer.byteLength === 1024 && m.views === null)).toBe(true);
  expect(v.pinnedBytes).toBe(0);
});

test("the memory budget counts what pinned requests hold beyond the held data", () => {
  const budget = new MemoryBudget({ maxBytes: 10_000, now: () => 0 });
  budget.track({ heldMessages: 0, heldBytes: 0, pinnedBytes: 4_000 });
  expect(() => budget.admit(1, 1_000)).toThrow(/RESOURCE_EXHAUSTED|would pass/);
  budget.track({ heldMessages: 0, heldBytes: 0, pinnedBytes: 0 });
  expect(() => budget.admit(1, 1_000)).not.toThrow();
});

test("past VIEW_CAP bytes of requests the oldest are copied out at once", () => {
  const { clock, v } = started();
  const perRequest = 1024; // 1 MiB + 100 B each
  const requests = Array.from({ length: Math.ceil(VIEW_CAP / (perRequest * 1024)) + 1 }, () => request(perRequest));
  for (const r of requests) for (const m of r) v.held(m);
  expect(requests[0]!.every((m) => m.data.buffer.byteLength === 1024)).toBe(true);
  expect(requests.at(-1)!.every((m) => m.views !== null)).toBe(true);
  const alive = requests.filter((r) => r[0]!.views !== null).length;
  expect(alive * (perRequest * 1024 + 100)).toBeLessThanOrEqual(VIEW_CAP);
  expect(v.pinnedBytes).toBe(alive * 100);
});

test("once a burst's requests are copied out and none is left, a collection is asked for", () => {
  let asked = 0;
  const { clock, v } = started(() => asked++);
  const requests = Array.from({ length: 20 }, () => request(1024));
  for (const r of requests) for (const m of r) v.held(m);
  clock.advance(VIEW_MS - 1);
  expect(asked).toBe(0);
  clock.advance(1);
  expect(asked).toBe(1);
  const small = request(2);
  for (const m of small) v.held(m);
  clock.advance(VIEW_MS);
  expect(asked).toBe(1); // a few KiB of garbage is not worth a collection
});

test("collections are asked for at most every 10 s", () => {
  let asked = 0;
  const { clock, v } = started(() => asked++);
  const burst = () => {
    for (const r of Array.from({ length: 20 }, () => request(1024))) for (const m of r) v.held(m);
    clock.advance(VIEW_MS);
  };
  burst();
  burst();
  expect(asked).toBe(1);
  clock.advance(10_000);
  burst();
  expect(asked).toBe(2);
});

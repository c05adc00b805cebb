import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/core/clock.ts";
import { Deque } from "../../src/core/deque.ts";
import { MinHeap, type HeapEntry } from "../../src/core/heap.ts";
import { TimedHeap } from "../../src/core/timed-heap.ts";

interface Item extends HeapEntry {
  id: string;
}
const item = (key: number, id = String(key)): Item => ({ key, id, heapIndex: -1 });

/** A deterministic pseudo-random sequence (no Math.random in assertions). */
function* lcg(seed: number) {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield x;
  }
}

describe("MinHeap", () => {
  test("pops in key order", () => {
    const h = new MinHeap<Item>();
    const rnd = lcg(7);
    const keys = Array.from({ length: 200 }, () => rnd.next().value! % 1000);
    for (const k of keys) h.push(item(k));
    const out: number[] = [];
    for (let it = h.pop(); it; it = h.pop()) out.push(it.key);
    expect(out).toEqual([...keys].sort((a, b) => a - b));
    expect(h.size).toBe(0);
  });

  test("peek shows the minimum without removing it", () => {
    const h = new MinHeap<Item>();
    h.push(item(5));
    h.push(item(2));
    h.push(item(9));
    expect(h.peek()?.key).toBe(2);
    expect(h.size).toBe(3);
  });

  test("remove takes out any entry and keeps the order; removing twice is harmless", () => {
    const h = new MinHeap<Item>();
    const items = [8, 3, 5, 1, 9, 2, 7].map((k) => item(k));
    for (const it of items) h.push(it);
    const three = items[1];
    h.remove(three);
    h.remove(three);
    expect(three.heapIndex).toBe(-1);
    const out: number[] = [];
    for (let it = h.pop(); it; it = h.pop()) out.push(it.key);
    expect(out).toEqual([1, 2, 5, 7, 8, 9]);
  });

  test("update moves an entry up or down", () => {
    const h = new MinHeap<Item>();
    const a = item(1, "a");
    const b = item(2, "b");
    const c = item(3, "c");
    for (const it of [a, b, c]) h.push(it);
    h.update(a, 10);
    expect(h.peek()?.id).toBe("b");
    h.update(c, 0);
    expect(h.pop()?.id).toBe("c");
    expect(h.pop()?.id).toBe("b");
    expect(h.pop()?.id).toBe("a");
  });

  test("clear empties the heap and resets indexes", () => {
    const h = new MinHeap<Item>();
    const a = item(1);
    h.push(a);
    expect(h.clear()).toEqual([a]);
    expect(h.size).toBe(0);
    expect(a.heapIndex).toBe(-1);
  });
});

describe("TimedHeap", () => {
  test("fires entries in deadline order at their time, with one timer armed", () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    const th = new TimedHeap<Item>(clock, (e, now) => fired.push(`${e.id}@${now}`));
    th.add(item(0, "c"), 300);
    th.add(item(0, "a"), 100);
    th.add(item(0, "b"), 200);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual(["a@100"]);
    clock.advance(500);
    expect(fired).toEqual(["a@100", "b@200", "c@300"]);
    expect(th.size).toBe(0);
  });

  test("a removed entry never fires", () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    const th = new TimedHeap<Item>(clock, (e) => fired.push(e.id));
    const a = item(0, "a");
    th.add(a, 100);
    th.add(item(0, "b"), 200);
    th.remove(a);
    clock.advance(1000);
    expect(fired).toEqual(["b"]);
  });

  test("reschedule later and earlier", () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    const th = new TimedHeap<Item>(clock, (e, now) => fired.push(`${e.id}@${now}`));
    const a = item(0, "a");
    const b = item(0, "b");
    th.add(a, 100);
    th.add(b, 500);
    th.reschedule(a, 400);
    th.reschedule(b, 50);
    clock.advance(1000);
    expect(fired).toEqual(["b@50", "a@400"]);
  });

  test("clear cancels everything including the timer", () => {
    const clock = new ManualClock(0);
    let fired = 0;
    const th = new TimedHeap<Item>(clock, () => fired++);
    th.add(item(0), 10);
    th.clear();
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(100);
    expect(fired).toBe(0);
  });
});

describe("Deque", () => {
  test("FIFO through growth and wrap-around", () => {
    const d = new Deque<number>(4);
    const out: number[] = [];
    for (let i = 0; i < 3; i++) d.push(i);
    out.push(d.shift()!, d.shift()!); // head moves so later pushes wrap
    for (let i = 3; i < 40; i++) d.push(i);
    expect(d.length).toBe(38);
    for (let x = d.shift(); x !== undefined; x = d.shift()) out.push(x);
    expect(out).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(d.shift()).toBeUndefined();
  });

  test("unshift puts in front; peek and iteration see the order", () => {
    const d = new Deque<string>();
    d.push("b");
    d.push("c");
    d.unshift("a");
    expect(d.peek()).toBe("a");
    expect([...d]).toEqual(["a", "b", "c"]);
    expect(d.length).toBe(3);
  });

  test("unshift across growth keeps order", () => {
    const d = new Deque<number>(2);
    for (let i = 0; i < 20; i++) d.unshift(i);
    expect([...d]).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));
  });

  test("clear empties it", () => {
    const d = new Deque<number>();
    d.push(1);
    d.clear();
    expect(d.length).toBe(0);
    expect(d.peek()).toBeUndefined();
  });
});

describe("ManualClock", () => {
  test("timers fire in deadline order and now() moves to each", () => {
    const clock = new ManualClock(1000);
    const seen: number[] = [];
    clock.schedule(1300, () => seen.push(clock.now()));
    clock.schedule(1100, () => seen.push(clock.now()));
    const h = clock.schedule(1200, () => seen.push(-1));
    clock.cancel(h);
    clock.advance(500);
    expect(seen).toEqual([1100, 1300]);
    expect(clock.now()).toBe(1500);
  });
});

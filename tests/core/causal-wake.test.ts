/**
 * Causal delivery's wake-up: new messages stay hidden and their subscriptions are woken only when
 * a deferral runs; each publish waits at least one whole deferral, however many come in between.
 */
import { expect, test } from "bun:test";
import { CausalWake } from "../../src/core/topic/causal-wake.ts";
import type { Subscription } from "../../src/core/subscription/subscription.ts";

function setup() {
  const log: string[] = [];
  const queued: Array<() => void> = [];
  const wake = new CausalWake((fn) => queued.push(fn));
  const sub = (name: string) => ({ published: () => log.push(name) }) as unknown as Subscription;
  const run = () => {
    expect(queued.length).toBe(1);
    queued.shift()!();
  };
  return { log, queued, wake, sub, run };
}

test("a publish is hidden and its subscriptions woken only when the deferral runs", () => {
  const { log, wake, sub, run } = setup();
  const a = sub("a");
  wake.add([a], 7);
  expect(log).toEqual([]);
  expect(wake.hiddenFrom).toBe(7);
  run();
  expect(log).toEqual(["a"]);
  expect(wake.hiddenFrom).toBe(Infinity);
});

test("publishes while armed wait a deferral of their own, coalesced into one", () => {
  const { log, queued, wake, sub, run } = setup();
  const a = sub("a");
  const b = sub("b");
  wake.add([a], 1);
  wake.add([a, b], 2);
  wake.add([b], 5);
  expect(queued.length).toBe(1);
  run();
  // The first publish is shown; the two later ones stay hidden until the next deferral.
  expect(log).toEqual(["a"]);
  expect(wake.hiddenFrom).toBe(2);
  run();
  expect(log).toEqual(["a", "a", "b"]);
  expect(wake.hiddenFrom).toBe(Infinity);
  expect(queued.length).toBe(0);
});

test("a publish that fed no subscription arms nothing and hides nothing", () => {
  const { queued, wake, sub, run } = setup();
  wake.add([], 1);
  expect(queued.length).toBe(0);
  expect(wake.hiddenFrom).toBe(Infinity);
  wake.add([sub("a")], 2);
  wake.add([], 3);
  run();
  expect(wake.hiddenFrom).toBe(Infinity);
  wake.add([sub("a")], 9);
  expect(wake.hiddenFrom).toBe(9);
});

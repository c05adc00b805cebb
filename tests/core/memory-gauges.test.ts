/**
 * Gauges beside resident memory (RLIMIT_AS, RLIMIT_DATA): over its limit a gauge refuses publishes
 * naming the cap; since virtual memory stays mapped after a drain, what was held at the crossing
 * (less a margin) may be held again while it stays over; far past the limit nothing is admitted.
 */
import { expect, test } from "bun:test";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { MemoryBudget } from "../../src/core/memory-budget.ts";
import { SEC, ack, bytes, caught, pullNow, topicAndSub } from "../helpers/core.ts";

const KIB = bytes("x".repeat(1024));

/** Publishes one message: true if admitted, false if refused RESOURCE_EXHAUSTED. */
function admits(broker: Broker, topic: string): boolean {
  try {
    broker.topics.publish(topic, [{ data: KIB }]);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code !== "RESOURCE_EXHAUSTED") throw e;
    return false;
  }
}

function gauged() {
  const clock = new ManualClock();
  const gauge = { what: "address space", limit: 1000, cap: "RLIMIT_AS (ulimit -v) of 1111 MiB", used: () => vsize };
  let vsize = 0;
  const memory = new MemoryBudget({ maxBytes: 2 ** 40, now: () => clock.now(), gauges: [gauge] });
  const broker = new Broker({ clock, memory, pullWaitMs: 1000 });
  return { broker, clock, memory, set: (v: number) => (vsize = v) };
}

test("over its limit the gauge refuses past the room it had at the crossing, and admits again within it", async () => {
  const { broker, clock, memory, set } = gauged();
  const { topic, sub } = topicAndSub(broker, { ackDeadlineSeconds: 600 });
  for (let i = 0; i < 8; i++) broker.topics.publish(topic, [{ data: KIB }]);
  const held = memory.held;
  set(1001);
  clock.advance(SEC);
  // The crossing: 8 messages held, so 6 may be held while the gauge stays over.
  const e = caught(() => broker.topics.publish(topic, [{ data: KIB }]));
  expect(e?.code).toBe("RESOURCE_EXHAUSTED");
  expect(e?.message).toContain("address space");
  expect(e?.message).toContain("RLIMIT_AS (ulimit -v)");
  expect(e?.message).toContain("raise that limit");
  ack(broker, sub, await pullNow(broker, sub, 8));
  expect(memory.held).toBe(0);
  clock.advance(SEC);
  let admitted = 0;
  while (admitted < 20 && admits(broker, topic)) admitted++;
  expect(admitted).toBe(Math.floor((held * 0.75) / (held / 8)));
  expect(memory.refused).toBe(2);
});

test("a gauge first read over after a drain leaves the room that was held before it, not none", async () => {
  const { broker, clock, memory, set } = gauged();
  const { topic, sub } = topicAndSub(broker, { ackDeadlineSeconds: 600 });
  for (let i = 0; i < 8; i++) broker.topics.publish(topic, [{ data: KIB }]);
  const perMessage = memory.held / 8;
  ack(broker, sub, await pullNow(broker, sub, 8));
  expect(memory.held).toBe(0);
  // The drain grew the mappings past the limit; no publish sampled the gauge in between.
  set(1001);
  clock.advance(SEC);
  let admitted = 0;
  while (admitted < 20 && admits(broker, topic)) admitted++;
  expect(admitted).toBe(Math.floor((8 * perMessage * 0.75) / perMessage));
  expect(memory.refused).toBe(1);
});

test("far past its limit the gauge refuses even an empty emulator; back under it, everything is admitted", () => {
  const { broker, clock, set } = gauged();
  const { topic } = topicAndSub(broker);
  set(1100);
  clock.advance(SEC);
  expect(caught(() => broker.topics.publish(topic, [{ data: KIB }]))?.code).toBe("RESOURCE_EXHAUSTED");
  set(900);
  clock.advance(SEC);
  for (let i = 0; i < 20; i++) broker.topics.publish(topic, [{ data: KIB }]);
});

/** The memory budget: held messages read from the store (held once, however many hold them); Publish refused past it. */
import { describe, expect, test } from "bun:test";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { ENTRY_OVERHEAD, MESSAGE_OVERHEAD, MemoryBudget } from "../../src/core/memory-budget.ts";
import { SEC, ack, bytes, caught, makeSub, makeTopic, nack, pullNow, setup, topicAndSub, expectRefused, topicWithSubs, deadLettering } from "../helpers/core.ts";

const KIB = bytes("x".repeat(1024));
/** What one held 1 KiB message is accounted as. */
const PER = 1024 + MESSAGE_OVERHEAD + ENTRY_OVERHEAD;

function budgeted(maxBytes: number, rss?: () => number, reclaim?: () => void) {
  const clock = new ManualClock();
  const memory = new MemoryBudget({ maxBytes, now: () => clock.now(), rss, reclaim });
  return { broker: new Broker({ clock, memory, pullWaitMs: 1000 }), clock, memory };
}

describe("memory accounting", () => {
  test("a message held by three subscriptions is accounted once", () => {
    const { broker, memory } = budgeted(2 ** 30);
    const topic = makeTopic(broker);
    for (let i = 0; i < 3; i++) makeSub(broker, topic);
    broker.topics.publish(topic, [{ data: KIB }]);
    expect(memory.held).toBe(PER);
  });

  test("a message no subscription takes is not held", () => {
    const { broker, memory } = budgeted(2 ** 30);
    const topic = makeTopic(broker);
    makeSub(broker, topic, { filter: "attributes:never" });
    broker.topics.publish(topic, [{ data: KIB }]);
    expect(memory.held).toBe(0);
  });

  test("acks give the memory back; nacks and expiries do not", async () => {
    const { broker, memory, clock } = budgeted(2 ** 30);
    const { topic, sub } = topicAndSub(broker);
    broker.topics.publish(topic, [{ data: KIB }, { data: KIB }]);
    const held = memory.held;
    expect(held).toBe(2 * PER);
    let ds = await pullNow(broker, sub);
    nack(broker, sub, ds);
    clock.advance(60 * SEC);
    expect(memory.held).toBe(held);
    ds = await pullNow(broker, sub);
    ack(broker, sub, ds);
    expect(memory.held).toBe(0);
  });

  test("deleting or detaching a subscription, or a reset, frees what it held", () => {
    const { broker, memory } = budgeted(2 ** 30);
    const { topic, subs: [a, b] } = topicWithSubs(broker, 2);
    broker.topics.publish(topic, [{ data: KIB }]);
    broker.subscriptions.delete(a);
    expect(memory.held).toBe(PER);
    broker.detachSubscription(b);
    expect(memory.held).toBe(0);
    makeSub(broker, topic);
    broker.topics.publish(topic, [{ data: KIB }]);
    broker.reset();
    expect(memory.held).toBe(0);
  });

  test("a message past its retention is freed when dropped", async () => {
    const { broker, memory, clock } = budgeted(2 ** 30);
    const { topic, sub } = topicAndSub(broker, { messageRetentionDuration: 600 * SEC });
    broker.topics.publish(topic, [{ data: KIB }]);
    clock.advance(601 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
    expect(memory.held).toBe(0);
  });

  test("dead-lettering moves the message to the dead-letter topic's subscription, and its ack frees it", async () => {
    const { broker, memory } = budgeted(2 ** 30);
    const { dlqSub, topic, sub } = deadLettering(broker);
    broker.topics.publish(topic, [{ data: KIB }]);
    for (let i = 0; i < 5; i++) nack(broker, sub, await pullNow(broker, sub));
    // The forwarded copy carries the dead-letter source attributes besides the data.
    expect(memory.held).toBeGreaterThan(PER);
    ack(broker, dlqSub, await pullNow(broker, dlqSub));
    expect(memory.held).toBe(0);
  });
});

describe("publish past the budget", () => {
  test("the publish that would cross it is RESOURCE_EXHAUSTED saying why; acks make room again", async () => {
    const { broker, memory } = budgeted(2 * 10 * PER);
    const { topic, sub } = topicAndSub(broker);
    for (let i = 0; i < 9; i++) broker.topics.publish(topic, [{ data: KIB }]);
    const e = expectRefused(() => broker.topics.publish(topic, [{ data: KIB }, { data: KIB }]), "RESOURCE_EXHAUSTED", "memory budget");
    expect(e.message).toContain("unacknowledged");
    expect(memory.refused).toBe(1);
    // Deliveries and acks go on past the budget.
    const ds = await pullNow(broker, sub, 100);
    expect(ds.length).toBe(9);
    ack(broker, sub, ds);
    expect(broker.topics.publish(topic, [{ data: KIB }, { data: KIB }]).length).toBe(2);
  });

  test("resident memory over the budget refuses publishes; it is sampled at most every 100 ms, with a collection asked for", () => {
    let rss = 10;
    let samples = 0;
    let reclaims = 0;
    const { broker, clock, memory } = budgeted(1000 * 2 ** 20, () => (samples++, rss), () => reclaims++);
    const topic = makeTopic(broker);
    for (let i = 0; i < 5; i++) broker.topics.publish(topic, [{ data: KIB }]);
    expect(samples).toBe(1);
    rss = 2000 * 2 ** 20;
    clock.advance(100);
    expectRefused(() => broker.topics.publish(topic, [{ data: KIB }]), "RESOURCE_EXHAUSTED", "process uses");
    expect(reclaims).toBe(1);
    rss = 10;
    clock.advance(100);
    expect(broker.topics.publish(topic, [{ data: KIB }]).length).toBe(1);
    expect(memory.probe()).toMatchObject({ limitBytes: 1000 * 2 ** 20, heldLimitBytes: 500 * 2 ** 20, publishesRefused: 1 });
  });

  test("without a budget nothing is refused and nothing is sampled", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    makeSub(broker, topic);
    expect(broker.memory.probe()).toBe(null);
    expect(broker.topics.publish(topic, [{ data: KIB }]).length).toBe(1);
    expect(broker.memory.held).toBe(PER);
  });
});

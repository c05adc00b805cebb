/** Retention on the manual clock: subscription retention, retain_acked_messages, topic retention, live updates. */
import { describe, expect, test } from "bun:test";
import { SEC, ack, makeSub, makeTopic, publishTexts, pullNow, setup, texts, setupWithSub } from "../helpers/core.ts";

const MIN = 60 * SEC;

describe("subscription message_retention_duration", () => {
  test("an unacked message is dropped when it is older than retention, freeing it", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ messageRetentionDuration: 10 * MIN });
    publishTexts(broker, topic, ["old"]);
    clock.advance(5 * MIN);
    publishTexts(broker, topic, ["young"]);
    expect(broker.stats().heldMessages).toBe(2);
    clock.advance(5 * MIN); // "old" is 10 min old now
    expect(broker.stats().heldMessages).toBe(1);
    expect(broker.stats().backlog).toBe(1);
    expect(texts(await pullNow(broker, sub))).toEqual(["young"]);
  });

  test("a leased message past retention is dropped and its ack id no longer acks", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ messageRetentionDuration: 10 * MIN });
    publishTexts(broker, topic, ["a"]);
    clock.advance(10 * MIN - 5 * SEC);
    const ds = await pullNow(broker, sub);
    broker.subscriptions.modifyAckDeadline(sub, [ds[0].ackId], 600);
    clock.advance(5 * SEC);
    expect(broker.stats().outstanding).toBe(0);
    expect(ack(broker, sub, ds)).toEqual([ds[0].ackId]);
    expect(broker.stats().heldMessages).toBe(0);
  });

  test("shortening retention with UpdateSubscription drops at once", () => {
    const { broker, clock, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    clock.advance(20 * MIN);
    expect(broker.stats().backlog).toBe(1);
    broker.subscriptions.update({ name: sub, messageRetentionDuration: 10 * MIN } as never, ["message_retention_duration"]);
    expect(broker.stats().backlog).toBe(0);
    expect(broker.stats().heldMessages).toBe(0);
  });
});

describe("retain_acked_messages", () => {
  test("acked messages are kept until retention runs out, then freed", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ retainAckedMessages: true, messageRetentionDuration: 10 * MIN });
    publishTexts(broker, topic, ["a", "b"]);
    ack(broker, sub, await pullNow(broker, sub));
    expect(broker.stats().backlog).toBe(0);
    expect(broker.stats().heldMessages).toBe(2);
    clock.advance(10 * MIN);
    expect(broker.stats().heldMessages).toBe(0);
  });

  test("acked messages can be replayed by a seek to a time", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ retainAckedMessages: true });
    const t0 = clock.now();
    publishTexts(broker, topic, ["a", "b"]);
    ack(broker, sub, await pullNow(broker, sub));
    clock.advance(SEC);
    broker.seek(sub, { time: t0 });
    expect(texts(await pullNow(broker, sub))).toEqual(["a", "b"]);
  });

  test("turning it off releases the acked messages kept so far", async () => {
    const { broker, topic, sub } = setupWithSub({ retainAckedMessages: true });
    publishTexts(broker, topic, ["a"]);
    ack(broker, sub, await pullNow(broker, sub));
    expect(broker.stats().heldMessages).toBe(1);
    broker.subscriptions.update({ name: sub, retainAckedMessages: false } as never, ["retain_acked_messages"]);
    expect(broker.stats().heldMessages).toBe(0);
  });
});

describe("topic message_retention_duration", () => {
  test("a topic with retention keeps messages no subscription holds, until retention runs out", () => {
    const { broker, clock } = setup();
    const topic = makeTopic(broker, { messageRetentionDuration: 10 * MIN });
    publishTexts(broker, topic, ["kept"]);
    expect(broker.stats().heldMessages).toBe(1);
    clock.advance(10 * MIN);
    expect(broker.stats().heldMessages).toBe(0);
  });

  test("without retention a message with no subscription is never held", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    publishTexts(broker, topic, ["gone"]);
    expect(broker.stats()).toMatchObject({ heldMessages: 0, heldBytes: 0 });
  });

  test("a subscription created later gets retained messages only on a seek", async () => {
    const { broker, clock } = setup();
    const topic = makeTopic(broker, { messageRetentionDuration: 60 * MIN });
    const t0 = clock.now();
    publishTexts(broker, topic, ["before"]);
    clock.advance(MIN);
    const sub = makeSub(broker, topic);
    expect(await pullNow(broker, sub)).toEqual([]);
    broker.seek(sub, { time: t0 });
    expect(texts(await pullNow(broker, sub))).toEqual(["before"]);
  });

  test("topic retention longer than the subscription's keeps its unacked messages that long", async () => {
    const { broker, clock } = setup();
    const topic = makeTopic(broker, { messageRetentionDuration: 60 * MIN });
    const sub = makeSub(broker, topic, { messageRetentionDuration: 10 * MIN });
    expect(broker.subscriptions.get(sub).topicMessageRetentionDuration).toBe(60 * MIN);
    publishTexts(broker, topic, ["a"]);
    clock.advance(30 * MIN);
    expect(texts(await pullNow(broker, sub))).toEqual(["a"]);
  });

  test("UpdateTopic applies at once: setting retention keeps new messages, removing it frees the log", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic);
    broker.topics.update({ name: topic, messageRetentionDuration: 60 * MIN } as never, ["message_retention_duration"]);
    expect(broker.subscriptions.get(sub).topicMessageRetentionDuration).toBe(60 * MIN);
    publishTexts(broker, topic, ["a"]);
    broker.subscriptions.delete(sub);
    expect(broker.stats().heldMessages).toBe(1);
    broker.topics.update({ name: topic } as never, ["message_retention_duration"]);
    expect(broker.stats().heldMessages).toBe(0);
  });

  test("deleting the topic frees its log", () => {
    const { broker } = setup();
    const topic = makeTopic(broker, { messageRetentionDuration: 60 * MIN });
    publishTexts(broker, topic, ["a", "b"]);
    expect(broker.stats().heldBytes).toBe(2);
    broker.topics.delete(topic);
    expect(broker.stats()).toMatchObject({ heldMessages: 0, heldBytes: 0 });
  });
});

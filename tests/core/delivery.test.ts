import { describe, expect, test } from "bun:test";
import {
  SEC,
  ack,
  bytes,
  caught,
  caughtAsync,
  flush,
  msg,
  nack,
  publishTexts,
  pullNow,
  setup,
  subName,
  texts,
  topicAndSub,
  track,
  setupWithSub,
  pulledAndRedelivered,
  expectRefused,
} from "../helpers/core.ts";

describe("publish → pull", () => {
  test("a pulled message carries id, data, attributes and publish time", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    const [id] = broker.topics.publish(topic, [msg("hello", { attributes: { k: "v" } })]);
    const [d] = await pullNow(broker, sub);
    expect(d.message.id).toBe(id);
    expect(new TextDecoder().decode(d.message.data)).toBe("hello");
    expect(d.message.attributes).toEqual({ k: "v" });
    expect(d.message.publishTime).toBe(clock.now());
    expect(d.deliveryAttempt).toBe(1);
    expect(typeof d.ackId).toBe("string");
  });

  test("publish returns one distinct id per message, in order of delivery", async () => {
    const { broker, topic, sub } = setupWithSub();
    const ids = publishTexts(broker, topic, ["a", "b", "c"]);
    expect(new Set(ids).size).toBe(3);
    const ds = await pullNow(broker, sub);
    expect(ds.map((d) => d.message.id)).toEqual(ids);
    expect(texts(ds)).toEqual(["a", "b", "c"]);
  });

  test("max_messages caps a pull", async () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["1", "2", "3", "4", "5"]);
    expect(texts(await pullNow(broker, sub, 2))).toEqual(["1", "2"]);
    expect(texts(await pullNow(broker, sub, 10))).toEqual(["3", "4", "5"]);
  });

  test("every subscription of a topic gets its own copy", async () => {
    const { broker, topic, sub } = setupWithSub();
    const other = broker.subscriptions.create({ name: sub + "-b", topic } as never).name;
    publishTexts(broker, topic, ["x"]);
    expect(texts(await pullNow(broker, sub))).toEqual(["x"]);
    expect(texts(await pullNow(broker, other))).toEqual(["x"]);
  });

  test("a message published before the subscription existed is not delivered", async () => {
    const { broker, topic } = setupWithSub();
    publishTexts(broker, topic, ["early"]);
    const late = broker.subscriptions.create({ name: subName(), topic } as never).name;
    expect(await pullNow(broker, late)).toEqual([]);
  });

  test("a message older than the subscription's retention is not delivered", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ messageRetentionDuration: 600 * SEC });
    publishTexts(broker, topic, ["old"]);
    clock.advance(601 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
  });
});

describe("broker options", () => {
  test("maxMessagesPerResponse caps a pull below max_messages", async () => {
    const { broker } = setup({ maxMessagesPerResponse: 3 });
    const { topic, sub } = topicAndSub(broker);
    publishTexts(broker, topic, ["1", "2", "3", "4", "5"]);
    expect(texts(await pullNow(broker, sub, 10))).toEqual(["1", "2", "3"]);
  });

  test("ack ids of a deleted subscription are not honoured by a re-created one of the same name", async () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["old"]);
    const old = await pullNow(broker, sub);
    broker.subscriptions.delete(sub);
    broker.subscriptions.create({ name: sub, topic } as never);
    publishTexts(broker, topic, ["new"]);
    expect(ack(broker, sub, old)).toEqual([old[0].ackId]); // matched no lease
    expect(texts(await pullNow(broker, sub))).toEqual(["new"]);
  });
});

describe("unary pull waiting", () => {
  test("a waiting pull answers at once when messages are ready", async () => {
    const { broker } = setup({ pullWaitMs: 60_000 });
    const { topic, sub } = topicAndSub(broker);
    publishTexts(broker, topic, ["ready"]);
    const state = track(broker.subscriptions.pull(sub, 10).result);
    await flush();
    expect(state.settled).toBe(true);
    expect(texts(state.value!)).toEqual(["ready"]);
  });

  test("returnImmediately on an empty subscription returns []", async () => {
    const { broker, sub } = setupWithSub();
    expect(await pullNow(broker, sub)).toEqual([]);
  });

  test("a waiting pull resolves empty after pullWaitMs on the manual clock, not before", async () => {
    const { broker, clock } = setup({ pullWaitMs: 5000 });
    const { sub } = topicAndSub(broker);
    const state = track(broker.subscriptions.pull(sub, 10).result);
    clock.advance(4999);
    await flush();
    expect(state.settled).toBe(false);
    clock.advance(1);
    await flush();
    expect(state.settled).toBe(true);
    expect(state.value).toEqual([]);
  });

  test("a waiting pull resolves early when a publish arrives, and its timer is cancelled", async () => {
    const { broker, clock } = setup({ pullWaitMs: 5000 });
    const { topic, sub } = topicAndSub(broker);
    const before = clock.pendingTimers(); // the expiration policy's
    const h = broker.subscriptions.pull(sub, 10);
    const state = track(h.result);
    await flush();
    expect(state.settled).toBe(false);
    clock.advance(100);
    publishTexts(broker, topic, ["now"]);
    await flush();
    expect(state.settled).toBe(true);
    expect(texts(state.value!)).toEqual(["now"]);
    expect(clock.pendingTimers()).toBe(before + 2); // the pull's is gone: the lease's and retention's remain
  });

  test("a cancelled waiting pull resolves [] and leaves later messages for the next pull", async () => {
    const { broker, topic, sub } = setupWithSub();
    const h = broker.subscriptions.pull(sub, 10);
    h.cancel();
    expect(await h.result).toEqual([]);
    publishTexts(broker, topic, ["kept"]);
    expect(texts(await pullNow(broker, sub))).toEqual(["kept"]);
  });

  test("two waiting pulls share one message: exactly one gets it", async () => {
    const { broker, clock } = setup({ pullWaitMs: 1000 });
    const { topic, sub } = topicAndSub(broker);
    const a = track(broker.subscriptions.pull(sub, 10).result);
    const b = track(broker.subscriptions.pull(sub, 10).result);
    publishTexts(broker, topic, ["only"]);
    clock.advance(1000);
    await flush();
    expect(a.settled && b.settled).toBe(true);
    const got = [...a.value!, ...b.value!];
    expect(texts(got)).toEqual(["only"]);
  });

  test("a waiting pull fails NOT_FOUND when its subscription is deleted", async () => {
    const { broker, sub } = setupWithSub();
    const h = broker.subscriptions.pull(sub, 10);
    broker.subscriptions.delete(sub);
    expect((await caughtAsync(h.result)).code).toBe("NOT_FOUND");
  });
});

describe("leases", () => {
  test("ack removes the message for good", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    const ds = await pullNow(broker, sub);
    expect(ack(broker, sub, ds)).toEqual([]); // every id matched a lease
    clock.advance(60 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
  });

  test("an unacked message is not redelivered before its deadline", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    await pullNow(broker, sub);
    clock.advance(9 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
  });

  test("ack-deadline expiry redelivers with deliveryAttempt 2", async () => {
    const [[first], [again]] = await pulledAndRedelivered(setupWithSub());
    expect(again.message.id).toBe(first.message.id);
    expect(again.deliveryAttempt).toBe(2);
    expect(again.ackId).not.toBe(first.ackId);
  });

  test("a stale ack id from before a redelivery changes nothing", async () => {
    const f = setupWithSub();
    const { broker, clock, sub } = f;
    const [first, second] = await pulledAndRedelivered(f);
    expect(ack(broker, sub, first)).toEqual([first[0].ackId]);
    expect(broker.subscriptions.modifyAckDeadline(sub, [first[0].ackId], 600)).toEqual([first[0].ackId]);
    clock.advance(11 * SEC);
    const third = await pullNow(broker, sub);
    expect(third.map((d) => d.message.id)).toEqual(second.map((d) => d.message.id));
    expect(third[0].deliveryAttempt).toBe(3);
  });

  test("unknown ack ids are ignored (and reported back) without exactly-once delivery", async () => {
    const { broker, sub } = setupWithSub();
    expect(broker.subscriptions.acknowledge(sub, ["nope"])).toEqual(["nope"]);
  });

  test("modifyAckDeadline extends: no redelivery before the new deadline, redelivery after", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    const ds = await pullNow(broker, sub);
    clock.advance(5 * SEC);
    expect(broker.subscriptions.modifyAckDeadline(sub, [ds[0].ackId], 30)).toEqual([]);
    clock.advance(29 * SEC); // 34 s after delivery, 29 s after the modack
    expect(await pullNow(broker, sub)).toEqual([]);
    clock.advance(2 * SEC);
    const again = await pullNow(broker, sub);
    expect(texts(again)).toEqual(["a"]);
    expect(again[0].deliveryAttempt).toBe(2);
  });

  test("modifyAckDeadline can shorten a lease", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ ackDeadlineSeconds: 600 });
    publishTexts(broker, topic, ["a"]);
    const ds = await pullNow(broker, sub);
    broker.subscriptions.modifyAckDeadline(sub, [ds[0].ackId], 1);
    clock.advance(2 * SEC);
    expect(texts(await pullNow(broker, sub))).toEqual(["a"]);
  });

  test("the ack id of an extended lease still acks", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    const ds = await pullNow(broker, sub);
    broker.subscriptions.modifyAckDeadline(sub, [ds[0].ackId], 60);
    expect(ack(broker, sub, ds)).toEqual([]);
    clock.advance(120 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
  });

  test("modack 0 is a nack: redelivered at once", async () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    const ds = await pullNow(broker, sub);
    nack(broker, sub, ds);
    const again = await pullNow(broker, sub);
    expect(texts(again)).toEqual(["a"]);
    expect(again[0].deliveryAttempt).toBe(2);
  });

  test("deliveryAttempt counts nacks and expiries: 1, 2, 3, 4", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    const attempts: number[] = [];
    let ds = await pullNow(broker, sub);
    attempts.push(ds[0].deliveryAttempt);
    nack(broker, sub, ds);
    ds = await pullNow(broker, sub);
    attempts.push(ds[0].deliveryAttempt);
    clock.advance(11 * SEC);
    ds = await pullNow(broker, sub);
    attempts.push(ds[0].deliveryAttempt);
    nack(broker, sub, ds);
    ds = await pullNow(broker, sub);
    attempts.push(ds[0].deliveryAttempt);
    expect(attempts).toEqual([1, 2, 3, 4]);
  });

  test("a redelivered message comes before fresh ones", async () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["first"]);
    const ds = await pullNow(broker, sub);
    publishTexts(broker, topic, ["second"]);
    nack(broker, sub, ds);
    expect(texts(await pullNow(broker, sub))).toEqual(["first", "second"]);
  });

  test("modifyAckDeadline outside 0..600 is INVALID_ARGUMENT naming ack_deadline_seconds", () => {
    const { broker, sub } = setupWithSub();
    for (const s of [601, -1]) {
      expectRefused(() => broker.subscriptions.modifyAckDeadline(sub, ["x"], s), "INVALID_ARGUMENT", "ack_deadline_seconds");
    }
  });

  test("acknowledge with no ack ids is INVALID_ARGUMENT naming ack_ids", () => {
    const { broker, sub } = setupWithSub();
    expectRefused(() => broker.subscriptions.acknowledge(sub, []), "INVALID_ARGUMENT", "ack_ids");
  });

  test("over 2500 ack ids in one request is INVALID_ARGUMENT", () => {
    const { broker, sub } = setupWithSub();
    const ids = Array.from({ length: 2501 }, (_, i) => `id${i}`);
    expect(caught(() => broker.subscriptions.acknowledge(sub, ids)).code).toBe("INVALID_ARGUMENT");
    expect(broker.subscriptions.acknowledge(sub, ids.slice(0, 2500))).toHaveLength(2500); // accepted; none matched a lease
  });

  test("a message with only attributes is delivered", async () => {
    const { broker, topic, sub } = setupWithSub();
    broker.topics.publish(topic, [{ attributes: { only: "attrs" } }]);
    const [d] = await pullNow(broker, sub);
    expect(d.message.attributes).toEqual({ only: "attrs" });
    expect(d.message.data.length).toBe(0);
    expect(bytes("x").length).toBe(1);
  });
});

describe("subscription filter", () => {
  test("a filtered subscription receives only matching messages", async () => {
    const { broker, topic, sub } = setupWithSub({ filter: 'attributes.color = "red"' });
    broker.topics.publish(topic, [msg("red", { attributes: { color: "red" } })]);
    broker.topics.publish(topic, [msg("blue", { attributes: { color: "blue" } })]);
    broker.topics.publish(topic, [msg("none")]);
    expect(texts(await pullNow(broker, sub))).toEqual(["red"]);
  });

  test("a filter that does not parse is INVALID_ARGUMENT naming filter", () => {
    const { broker } = setup();
    expectRefused(() => topicAndSub(broker, { filter: "attributes.color = = (" }), "INVALID_ARGUMENT", "filter");
  });
});

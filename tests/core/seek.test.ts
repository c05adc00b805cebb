/** Seek on the manual clock: to a time, to a snapshot, what it restores, and what happens to leases and streams. */
import { describe, expect, test } from "bun:test";
import {
  PROJECT,
  SEC,
  ack,
  caught,
  makeSub,
  makeTopic,
  msg,
  openStream,
  publishTexts,
  pullNow,
  setup,
  setupWithSub,
  texts,
  topicAndSub,
  expectRefused,
} from "../helpers/core.ts";

let n = 0;
const snapName = () => `projects/${PROJECT}/snapshots/seek-${++n}`;

describe("seek to a time", () => {
  test("messages before the time become acked, at or after unacked", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ retainAckedMessages: true });
    publishTexts(broker, topic, ["old"]);
    clock.advance(SEC);
    const t = clock.now();
    publishTexts(broker, topic, ["at"]);
    clock.advance(SEC);
    publishTexts(broker, topic, ["new"]);
    ack(broker, sub, await pullNow(broker, sub));
    broker.seek(sub, { time: t });
    expect(texts(await pullNow(broker, sub))).toEqual(["at", "new"]);
  });

  test("a seek to the future acks everything (purge)", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a", "b"]);
    await pullNow(broker, sub, 1); // one leased, one waiting
    broker.seek(sub, { time: clock.now() + 1000 * 24 * 3600 * SEC });
    expect(await pullNow(broker, sub)).toEqual([]);
    expect(broker.stats()).toMatchObject({ backlog: 0, outstanding: 0, heldMessages: 0 });
    publishTexts(broker, topic, ["c"]);
    expect(texts(await pullNow(broker, sub))).toEqual(["c"]);
  });

  test("acked messages without retain_acked_messages or a log stay acked", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    const t0 = clock.now();
    publishTexts(broker, topic, ["gone"]);
    ack(broker, sub, await pullNow(broker, sub));
    broker.seek(sub, { time: t0 });
    expect(await pullNow(broker, sub)).toEqual([]);
  });

  test("a snapshot's log lets a time seek restore acked messages sent after the subscription was made", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    broker.createSnapshot(snapName(), sub);
    const t0 = clock.now();
    publishTexts(broker, topic, ["again"]);
    ack(broker, sub, await pullNow(broker, sub));
    broker.seek(sub, { time: t0 });
    expect(texts(await pullNow(broker, sub))).toEqual(["again"]);
  });

  test("with topic retention, messages from before the subscription existed come back, filtered", async () => {
    const { broker, clock } = setup();
    const topic = makeTopic(broker, { messageRetentionDuration: 3600 * SEC });
    const t0 = clock.now();
    broker.topics.publish(topic, [msg("blue", { attributes: { c: "blue" } }), msg("red", { attributes: { c: "red" } })]);
    clock.advance(SEC);
    const sub = makeSub(broker, topic, { filter: 'attributes.c = "blue"' });
    broker.seek(sub, { time: t0 });
    expect(texts(await pullNow(broker, sub))).toEqual(["blue"]);
  });

  test("an unset target is INVALID_ARGUMENT; a missing subscription NOT_FOUND", () => {
    const { broker, sub } = setupWithSub();
    expect(caught(() => broker.seek(sub, {})).code).toBe("INVALID_ARGUMENT");
    expect(caught(() => broker.seek(`projects/${PROJECT}/subscriptions/nope-s`, { time: 0 })).code).toBe("NOT_FOUND");
  });
});

describe("seek to a snapshot", () => {
  test("the snapshot's backlog and later messages become unacked, the rest acked", async () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["acked-before", "pending"]);
    const [first] = await pullNow(broker, sub, 1);
    ack(broker, sub, [first]);
    const name = snapName();
    broker.createSnapshot(name, sub);
    publishTexts(broker, topic, ["later"]);
    ack(broker, sub, await pullNow(broker, sub));
    expect(await pullNow(broker, sub)).toEqual([]);
    broker.seek(sub, { snapshot: name });
    expect(texts(await pullNow(broker, sub))).toEqual(["pending", "later"]);
  });

  test("a snapshot of another topic is FAILED_PRECONDITION", () => {
    const { broker } = setup();
    const a = topicAndSub(broker);
    const b = topicAndSub(broker);
    const name = snapName();
    broker.createSnapshot(name, a.sub);
    expectRefused(() => broker.seek(b.sub, { snapshot: name }), "FAILED_PRECONDITION", name);
  });

  test("an expired snapshot is FAILED_PRECONDITION, a missing one NOT_FOUND", () => {
    const { broker, clock, sub } = setupWithSub();
    const name = snapName();
    broker.createSnapshot(name, sub);
    clock.advance(7 * 24 * 3600 * SEC);
    expect(caught(() => broker.seek(sub, { snapshot: name })).code).toBe("FAILED_PRECONDITION");
    expect(caught(() => broker.seek(sub, { snapshot: snapName() })).code).toBe("NOT_FOUND");
  });
});

describe("seek and delivery", () => {
  test("outstanding leases end: old ack ids no longer ack, and an open stream gets the messages again at once", () => {
    const { broker, clock, topic, sub } = setupWithSub();
    const t0 = clock.now();
    publishTexts(broker, topic, ["x"]);
    const { sink } = openStream(broker, sub);
    const [first] = sink.deliveries;
    expect(first.deliveryAttempt).toBe(1);
    broker.seek(sub, { time: t0 });
    expect(texts(sink.deliveries)).toEqual(["x", "x"]);
    expect(ack(broker, sub, [first])).toEqual([first.ackId]);
    expect(ack(broker, sub, [sink.deliveries[1]])).toEqual([]);
  });

  test("an ordered key is redelivered in order after a seek", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ enableMessageOrdering: true, retainAckedMessages: true });
    const t0 = clock.now();
    publishTexts(broker, topic, ["1", "2", "3"], "k");
    const ds = await pullNow(broker, sub);
    ack(broker, sub, ds.slice(0, 2));
    broker.seek(sub, { time: t0 });
    expect(texts(await pullNow(broker, sub))).toEqual(["1", "2", "3"]);
  });

  test("a detached subscription cannot seek", () => {
    const { broker, sub } = setupWithSub();
    broker.detachSubscription(sub);
    expect(caught(() => broker.seek(sub, { time: 0 })).code).toBe("FAILED_PRECONDITION");
  });
});

import { describe, expect, test } from "bun:test";
import { StreamSession, type StreamRequest } from "../../src/core/delivery/stream-session.ts";
import { REOFFER_MS } from "../../src/core/subscription/reoffer.ts";
import { FakeSink, SEC, caught, publishTexts, pullNow, setup, subName, texts, topicAndSub, expectRefused, setupWithSub } from "../helpers/core.ts";

function open(first: Partial<StreamRequest> = {}, subExtra = {}) {
  const f = setupWithSub(subExtra);
  const sink = new FakeSink();
  const session = new StreamSession(f.broker.subscriptions, { subscription: f.sub, streamAckDeadlineSeconds: 10, ...first }, sink);
  return { ...f, sink, session };
}

const nums = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(from + i));

describe("stream first request", () => {
  test("no subscription is INVALID_ARGUMENT naming subscription", () => {
    const { broker } = setup();
    expectRefused(() => new StreamSession(broker.subscriptions, { streamAckDeadlineSeconds: 10 }, new FakeSink()), "INVALID_ARGUMENT", "subscription");
  });

  test.each([9, 601, 0])("stream_ack_deadline_seconds %i is INVALID_ARGUMENT naming it", (secs) => {
    const { broker, sub } = setupWithSub();
    expectRefused(() => new StreamSession(broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: secs }, new FakeSink()), "INVALID_ARGUMENT", "stream_ack_deadline_seconds");
  });

  test("a missing subscription is NOT_FOUND", () => {
    const { broker } = setup();
    const e = caught(() => new StreamSession(broker.subscriptions, { subscription: subName(), streamAckDeadlineSeconds: 10 }, new FakeSink()));
    expect(e.code).toBe("NOT_FOUND");
  });

  test("mismatched modify_deadline lengths are INVALID_ARGUMENT", () => {
    const { broker, sub } = setupWithSub();
    const first = { subscription: sub, streamAckDeadlineSeconds: 10, modifyDeadlineAckIds: ["a", "b"], modifyDeadlineSeconds: [10] };
    expect(caught(() => new StreamSession(broker.subscriptions, first, new FakeSink())).code).toBe("INVALID_ARGUMENT");
  });

  test("a detached subscription is FAILED_PRECONDITION", () => {
    const { broker, sub } = setupWithSub();
    broker.detachSubscription(sub);
    expect(caught(() => new StreamSession(broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, new FakeSink())).code).toBe(
      "FAILED_PRECONDITION",
    );
  });
});

describe("stream delivery", () => {
  test("messages already waiting are delivered when the stream opens", () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    publishTexts(f.broker, topic, ["early"]);
    const sink = new FakeSink();
    new StreamSession(f.broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, sink);
    expect(texts(sink.deliveries)).toEqual(["early"]);
  });

  test("acks on the stream settle messages", async () => {
    const { broker, clock, topic, sub, sink, session } = open();
    publishTexts(broker, topic, ["a"]);
    session.handle({ ackIds: [sink.deliveries[0].ackId] });
    session.close();
    clock.advance(60 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
  });

  test("the stream's ack deadline is its lease length", () => {
    const { broker, clock, topic, sink } = open({ streamAckDeadlineSeconds: 60 });
    publishTexts(broker, topic, ["a"]);
    clock.advance(30 * SEC);
    expect(texts(sink.deliveries)).toEqual(["a"]);
    clock.advance(31 * SEC);
    expect(texts(sink.deliveries)).toEqual(["a", "a"]);
  });

  test("a modack of 0 on the stream redelivers to the same stream after REOFFER_MS", () => {
    const { broker, clock, topic, sink, session } = open();
    publishTexts(broker, topic, ["a"]);
    session.handle({ modifyDeadlineAckIds: [sink.deliveries[0].ackId], modifyDeadlineSeconds: [0] });
    expect(texts(sink.deliveries)).toEqual(["a"]);
    clock.advance(REOFFER_MS - 1);
    expect(texts(sink.deliveries)).toEqual(["a"]);
    clock.advance(1);
    expect(texts(sink.deliveries)).toEqual(["a", "a"]);
    expect(sink.deliveries[1].deliveryAttempt).toBe(2);
  });

  test("an out-of-range modack on the stream ends it with INVALID_ARGUMENT", () => {
    const { broker, topic, sink, session } = open();
    publishTexts(broker, topic, ["a"]);
    session.handle({ modifyDeadlineAckIds: [sink.deliveries[0].ackId], modifyDeadlineSeconds: [601] });
    expect(sink.failure?.code).toBe("INVALID_ARGUMENT");
    publishTexts(broker, topic, ["b"]);
    expect(texts(sink.deliveries)).toEqual(["a"]);
  });

  test("after close nothing more is sent, and unacked leases expire and redeliver elsewhere", async () => {
    const { broker, clock, topic, sub, sink, session } = open();
    publishTexts(broker, topic, ["a"]);
    session.close();
    publishTexts(broker, topic, ["b"]);
    expect(texts(sink.deliveries)).toEqual(["a"]);
    const b = await pullNow(broker, sub);
    expect(texts(b)).toEqual(["b"]);
    broker.subscriptions.acknowledge(sub, [b[0].ackId]);
    clock.advance(11 * SEC);
    expect(texts(await pullNow(broker, sub))).toEqual(["a"]);
  });

  test("an expired lease is redelivered on the same open stream with deliveryAttempt 2", () => {
    const { broker, clock, topic, sink } = open();
    publishTexts(broker, topic, ["a"]);
    clock.advance(11 * SEC);
    expect(texts(sink.deliveries)).toEqual(["a", "a"]);
    expect(sink.deliveries.map((d) => d.deliveryAttempt)).toEqual([1, 2]);
  });

  test("fillWaitMs gathers publishes into one response", () => {
    const f = setup({ fillWaitMs: 50 });
    const { topic, sub } = topicAndSub(f.broker);
    const sink = new FakeSink();
    new StreamSession(f.broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, sink);
    publishTexts(f.broker, topic, ["a"]);
    publishTexts(f.broker, topic, ["b"]);
    expect(sink.sends).toEqual([]);
    f.clock.advance(50);
    expect(sink.sends.map(texts)).toEqual([["a", "b"]]);
  });

  test("deleting the subscription fails the stream with NOT_FOUND", () => {
    const { broker, sub, sink } = open();
    broker.subscriptions.delete(sub);
    expect(sink.failure?.code).toBe("NOT_FOUND");
  });

  test("keepalive: an empty later request gets an empty send([])", () => {
    const { sink, session } = open();
    expect(sink.keepalives).toBe(0);
    session.handle({});
    expect(sink.sends).toEqual([[]]);
  });

  test("a request that acks is not answered with a keepalive", () => {
    const { broker, topic, sink, session } = open();
    publishTexts(broker, topic, ["a"]);
    session.handle({ ackIds: [sink.deliveries[0].ackId] });
    expect(sink.keepalives).toBe(0);
  });

  test("subscription set again on a later request with another name ends the stream", () => {
    const { sink, session } = open();
    session.handle({ subscription: subName() });
    expect(sink.failure?.code).toBe("INVALID_ARGUMENT");
  });
});

describe("stream flow control", () => {
  test("max_outstanding_messages is respected; acks free room", () => {
    const { broker, topic, sink, session } = open({ maxOutstandingMessages: 2 });
    publishTexts(broker, topic, nums(5));
    expect(texts(sink.deliveries)).toEqual(["0", "1"]);
    session.handle({ ackIds: [sink.deliveries[0].ackId] });
    expect(texts(sink.deliveries)).toEqual(["0", "1", "2"]);
    session.handle({ ackIds: [sink.deliveries[1].ackId, sink.deliveries[2].ackId] });
    expect(texts(sink.deliveries)).toEqual(["0", "1", "2", "3", "4"]);
  });

  test("a nack frees room too: the next message flows at once, the nacked one after REOFFER_MS", () => {
    const { broker, clock, topic, sink, session } = open({ maxOutstandingMessages: 1 });
    publishTexts(broker, topic, nums(2));
    session.handle({ modifyDeadlineAckIds: [sink.deliveries[0].ackId], modifyDeadlineSeconds: [0] });
    expect(texts(sink.deliveries)).toEqual(["0", "1"]);
    clock.advance(REOFFER_MS);
    expect(texts(sink.deliveries)).toEqual(["0", "1"]); // no room until "1" is acked
    session.handle({ ackIds: [sink.deliveries[1].ackId] });
    expect(texts(sink.deliveries)).toEqual(["0", "1", "0"]);
  });

  test("max_outstanding_bytes: sending stops once the bytes out reach the limit, so one message may go over", () => {
    const { broker, topic, sink, session } = open({ maxOutstandingBytes: 15 });
    publishTexts(broker, topic, ["x".repeat(10), "y".repeat(10), "z".repeat(10), "w".repeat(10)]);
    expect(sink.deliveries.length).toBe(2); // 0 < 15, 10 < 15, then 20 >= 15
    session.handle({ ackIds: [sink.deliveries[0].ackId] });
    expect(sink.deliveries.length).toBe(3); // back to 10 < 15: one more
  });

  for (const field of ["maxOutstandingMessages", "maxOutstandingBytes", "protocolVersion"] as const) {
    test(`${field} on a later request ends the stream with INVALID_ARGUMENT (initial-only per the proto)`, () => {
      const { broker, topic, sink, session } = open({ maxOutstandingMessages: 1 });
      publishTexts(broker, topic, nums(3));
      expect(sink.deliveries.length).toBe(1);
      session.handle({ [field]: 3 });
      expect(sink.failure?.code).toBe("INVALID_ARGUMENT");
      expect(sink.failure?.message).toContain("first StreamingPullRequest");
      publishTexts(broker, topic, nums(1));
      expect(sink.deliveries.length).toBe(1);
    });
  }

  test.each([
    ["a transport with no room", 2, () => 0],
    ["a transport with 600 KiB of room", 6, () => 600 * 1024],
    ["a transport with a wide window", 10, () => 2 ** 31],
    ["a transport that does not say", 10, undefined],
  ] as [string, number, (() => number) | undefined][])("a response to %s holds %i messages of 100 kB (its room, within 256 KiB–1 MiB)", (_what, perResponse, room) => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    publishTexts(f.broker, topic, Array.from({ length: 30 }, () => "x".repeat(100_000)));
    const sink = new FakeSink();
    sink.room = room;
    new StreamSession(f.broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, sink);
    expect(sink.sends[0]!.length).toBe(perResponse);
    expect(sink.deliveries.length).toBe(30);
  });

  test("a message larger than the response bytes goes alone", () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    publishTexts(f.broker, topic, ["y".repeat(2_000_000), "z"]);
    const sink = new FakeSink();
    sink.room = () => 0;
    new StreamSession(f.broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, sink);
    expect(sink.sends.map((s) => s.length)).toEqual([1, 1]);
  });

  test("backpressure: send returning false pauses delivery until drained()", () => {
    const { broker, topic, sink, session } = open();
    sink.writable = false;
    publishTexts(broker, topic, ["a"]);
    publishTexts(broker, topic, ["b"]);
    publishTexts(broker, topic, ["c"]);
    expect(texts(sink.deliveries)).toEqual(["a"]);
    sink.writable = true;
    session.drained();
    expect(texts(sink.deliveries)).toEqual(["a", "b", "c"]);
  });

  test("while backpressured the waiting messages can go to another consumer", async () => {
    const { broker, topic, sub, sink } = open();
    sink.writable = false;
    publishTexts(broker, topic, ["a"]);
    publishTexts(broker, topic, ["b"]);
    expect(texts(await pullNow(broker, sub))).toEqual(["b"]);
  });

  test("several streams share messages: each message delivered once, both get some", () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    const sinks = [new FakeSink(), new FakeSink()];
    for (const s of sinks) new StreamSession(f.broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, s);
    const sent = nums(100);
    publishTexts(f.broker, topic, sent);
    const got = sinks.flatMap((s) => texts(s.deliveries));
    expect(got.length).toBe(100);
    expect(new Set(got)).toEqual(new Set(sent));
    for (const s of sinks) expect(s.deliveries.length).toBeGreaterThan(0);
  });

  test("a full stream leaves messages for a stream with room", () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    const small = new FakeSink();
    const big = new FakeSink();
    new StreamSession(f.broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10, maxOutstandingMessages: 1 }, small);
    new StreamSession(f.broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, big);
    publishTexts(f.broker, topic, nums(10));
    expect(small.deliveries.length).toBe(1);
    expect(big.deliveries.length).toBe(9);
  });
});

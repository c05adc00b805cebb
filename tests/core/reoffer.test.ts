/**
 * A message that comes back (nack, expiry) goes to the subscription's other streams first, and to
 * the stream it came back from only REOFFER_MS later (src/core/subscription/reoffer.ts): a client
 * that nacks while it closes, or a stream nobody reads any more, does not get it back at once.
 */
import { describe, expect, test } from "bun:test";
import { REOFFER_MS } from "../../src/core/subscription/reoffer.ts";
import { SEC, nack, openStream, publishTexts, pullNow, setup, texts, topicAndSub, setupWithSub } from "../helpers/core.ts";

function twoStreams(subExtra = {}) {
  const f = setupWithSub(subExtra);
  const a = openStream(f.broker, f.sub, { maxOutstandingMessages: 100 });
  const b = openStream(f.broker, f.sub, { maxOutstandingMessages: 100 });
  return { ...f, a, b };
}

const nums = (n: number) => Array.from({ length: n }, (_, i) => String(i));

/** One stream that was sent `n` messages and nacked them all, then one more message was published. */
function nackedAll(n: number) {
  const f = setup();
  const { topic, sub } = topicAndSub(f.broker);
  const s = openStream(f.broker, sub, { maxOutstandingMessages: 1000 });
  publishTexts(f.broker, topic, nums(n));
  nack(f.broker, sub, s.sink.deliveries);
  publishTexts(f.broker, topic, ["new"]);
  return { clock: f.clock, s };
}

describe("a message that comes back", () => {
  test("nacked on one stream, it goes to the other at once, not back to the first", () => {
    const { broker, clock, topic, sub, a, b } = twoStreams();
    publishTexts(broker, topic, ["m"]);
    const [from, other] = a.sink.deliveries.length ? [a, b] : [b, a];
    expect(texts(from.sink.deliveries)).toEqual(["m"]);
    nack(broker, sub, from.sink.deliveries);
    expect(texts(other.sink.deliveries)).toEqual(["m"]);
    clock.advance(REOFFER_MS * 10);
    expect(texts(from.sink.deliveries)).toEqual(["m"]);
  });

  test("expired on a stream nobody reads, it goes to the other stream", () => {
    const { broker, clock, topic, a, b } = twoStreams();
    publishTexts(broker, topic, nums(10));
    const before = { a: a.sink.deliveries.length, b: b.sink.deliveries.length };
    expect(before.a + before.b).toBe(10);
    clock.advance(10 * SEC);
    // Everything expired at once; each message went to the stream it was not on.
    expect(a.sink.deliveries.length - before.a).toBe(before.b);
    expect(b.sink.deliveries.length - before.b).toBe(before.a);
  });

  test("with one stream it comes back to it after REOFFER_MS, in order, while new messages flow", () => {
    const { clock, s } = nackedAll(50);
    expect(texts(s.sink.deliveries.slice(50))).toEqual(["new"]);
    clock.advance(REOFFER_MS);
    expect(texts(s.sink.deliveries.slice(51))).toEqual(nums(50));
  });

  test("past 64 set aside a take stops looking (bounded work): new messages wait behind them", () => {
    const { clock, s } = nackedAll(100);
    expect(s.sink.deliveries.length).toBe(100);
    clock.advance(REOFFER_MS);
    expect(texts(s.sink.deliveries.slice(100))).toEqual([...nums(100), "new"]);
  });

  test("an ordering key comes back in order on the other stream", () => {
    const { broker, topic, sub, a, b } = twoStreams({ enableMessageOrdering: true });
    publishTexts(broker, topic, nums(5), "k");
    const [from, other] = a.sink.deliveries.length ? [a, b] : [b, a];
    const sent = texts(from.sink.deliveries);
    expect(sent[0]).toBe("0");
    nack(broker, sub, from.sink.deliveries.slice(0, 1));
    expect(texts(other.sink.deliveries)).toEqual(nums(other.sink.deliveries.length));
    expect(other.sink.deliveries.length).toBeGreaterThanOrEqual(sent.length);
    expect(texts(from.sink.deliveries)).toEqual(sent);
  });

  test("a unary Pull gets it at once", async () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    const s = openStream(f.broker, sub);
    publishTexts(f.broker, topic, ["m"]);
    s.session.close();
    nack(f.broker, sub, s.sink.deliveries);
    expect(texts(await pullNow(f.broker, sub))).toEqual(["m"]);
  });
});

/**
 * What a stream leaves behind when it ends: what the client never touched goes back after a short
 * grace (unless a unary modack or ack claims it meanwhile); what it modacked stays leased; acks and
 * nacks that come as it ends still count. And
 * exactly-once with ordering keys: no redelivery while a lease is valid.
 */
import { describe, expect, test } from "bun:test";
import { STREAM_END_GRACE_MS } from "../../src/core/delivery/stream-session.ts";
import { SEC, ack, nack, openStream, publishTexts, pullNow, setup, texts, topicAndSub } from "../helpers/core.ts";

describe("a stream that ends", () => {
  test("returns after the grace what it was sent but the client never acked or modacked", async () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    const { sink, session } = openStream(f.broker, sub, { streamAckDeadlineSeconds: 600 });
    publishTexts(f.broker, topic, ["a", "b", "c"]);
    expect(sink.deliveries.length).toBe(3);
    session.close();
    f.clock.advance(STREAM_END_GRACE_MS - 1);
    expect(await pullNow(f.broker, sub)).toEqual([]);
    f.clock.advance(1);
    expect(texts(await pullNow(f.broker, sub)).sort()).toEqual(["a", "b", "c"]);
  });

  test("a unary modack or ack within the grace (a client flushing as it closes) still holds", async () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    const { sink, session } = openStream(f.broker, sub, { streamAckDeadlineSeconds: 600 });
    publishTexts(f.broker, topic, ["a", "b", "c"]);
    const [a, b] = sink.deliveries;
    session.close();
    f.clock.advance(100);
    expect(f.broker.subscriptions.acknowledge(sub, [a.ackId])).toEqual([]);
    expect(f.broker.subscriptions.modifyAckDeadline(sub, [b.ackId], 60)).toEqual([]);
    f.clock.advance(STREAM_END_GRACE_MS);
    const c = await pullNow(f.broker, sub);
    expect(texts(c)).toEqual(["c"]);
    ack(f.broker, sub, c);
    f.clock.advance(60 * SEC);
    expect(texts(await pullNow(f.broker, sub))).toEqual(["b"]);
  });

  test("keeps leased what the client modacked, for acks still to come by unary calls", async () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    const { sink, session } = openStream(f.broker, sub, { streamAckDeadlineSeconds: 600 });
    publishTexts(f.broker, topic, ["a", "b"]);
    const [a] = sink.deliveries;
    session.handle({ modifyDeadlineAckIds: [a.ackId], modifyDeadlineSeconds: [60] });
    session.close();
    f.clock.advance(STREAM_END_GRACE_MS);
    const pulled = await pullNow(f.broker, sub);
    expect(texts(pulled)).toEqual(["b"]);
    expect(ack(f.broker, sub, pulled)).toEqual([]);
    expect(f.broker.subscriptions.acknowledge(sub, [a.ackId])).toEqual([]);
    f.clock.advance(700 * SEC);
    expect(await pullNow(f.broker, sub)).toEqual([]);
  });

  test("a nack that arrives after the end still returns the message", async () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    const { sink, session } = openStream(f.broker, sub, { streamAckDeadlineSeconds: 600 });
    publishTexts(f.broker, topic, ["a", "b"]);
    const ids = sink.deliveries.map((d) => d.ackId);
    session.handle({ modifyDeadlineAckIds: ids, modifyDeadlineSeconds: [600, 600] });
    session.close();
    expect(await pullNow(f.broker, sub)).toEqual([]);
    session.late({ modifyDeadlineAckIds: ids, modifyDeadlineSeconds: [0, 0] });
    expect(texts(await pullNow(f.broker, sub))).toEqual(["a", "b"]);
  });

  test("an ack that arrives after the end still acknowledges; a malformed late request is ignored", async () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker);
    const { sink, session } = openStream(f.broker, sub, { streamAckDeadlineSeconds: 10 });
    publishTexts(f.broker, topic, ["a"]);
    const id = sink.deliveries[0].ackId;
    session.handle({ modifyDeadlineAckIds: [id], modifyDeadlineSeconds: [10] });
    session.close();
    session.late({ modifyDeadlineAckIds: [id], modifyDeadlineSeconds: [] });
    session.late({ ackIds: [id] });
    f.clock.advance(60 * SEC);
    expect(await pullNow(f.broker, sub)).toEqual([]);
    expect(sink.failure).toBeNull();
  });
});

describe("exactly-once with ordering keys", () => {
  const both = () => {
    const f = setup();
    return { ...f, ...topicAndSub(f.broker, { enableExactlyOnceDelivery: true, enableMessageOrdering: true }) };
  };

  test("nacking a key's first message redelivers nothing still validly leased; each nack of the batch is valid", async () => {
    const { broker, clock, topic, sub } = both();
    publishTexts(broker, topic, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"], "k");
    const ds = await pullNow(broker, sub);
    expect(texts(ds)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    for (const d of ds) broker.subscriptions.modifyAckDeadline(sub, [d.ackId], 60);
    ack(broker, sub, ds.slice(0, 5));
    // The client's first nack must not end the leases its next nacks name.
    expect(broker.subscriptions.modifyAckDeadline(sub, [ds[5].ackId], 0)).toEqual([]);
    expect(await pullNow(broker, sub)).toEqual([]); // 7..10 are still validly leased
    expect(nack(broker, sub, ds.slice(6))).toEqual([]);
    const again = await pullNow(broker, sub);
    expect(texts(again)).toEqual(["6", "7", "8", "9", "10"]);
    clock.advance(5 * SEC);
    expect(ack(broker, sub, again)).toEqual([]);
  });

  test("a key waits for its valid leases to end, then goes again in order", async () => {
    const { broker, clock, topic, sub } = both();
    publishTexts(broker, topic, ["1", "2", "3"], "k");
    const ds = await pullNow(broker, sub);
    nack(broker, sub, ds.slice(0, 1));
    expect(await pullNow(broker, sub)).toEqual([]); // 2 and 3 are leased for 10 s
    clock.advance(11 * SEC);
    expect(texts(await pullNow(broker, sub))).toEqual(["1", "2", "3"]);
  });

  test("without exactly-once, a nack still brings the key's later messages back with it", async () => {
    const f = setup();
    const { topic, sub } = topicAndSub(f.broker, { enableMessageOrdering: true });
    publishTexts(f.broker, topic, ["1", "2", "3"], "k");
    const ds = await pullNow(f.broker, sub);
    nack(f.broker, sub, ds.slice(0, 1));
    expect(texts(await pullNow(f.broker, sub))).toEqual(["1", "2", "3"]);
  });
});

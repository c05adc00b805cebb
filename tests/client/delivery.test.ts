/**
 * Delivery through the official client: exactly-once fan-in, unary pull, nack, deadlines, stream
 * cancel. The emulator runs on its manual clock: deadline tests move it over HTTP instead of sleeping.
 */
import { expect, test } from "bun:test";
import type { Message } from "@google-cloud/pubsub";
import { unique, waitFor } from "../helpers/emulator.ts";
import { openStream, sleep } from "../helpers/raw-clients.ts";
import { receive } from "../helpers/receive.ts";
import { clientSuite, withDeadLetters } from "../helpers/client-suite.ts";

const suite = clientSuite({ clock: "manual" });


/** A unary Pull that answers at once; the ack ids and data of what it got. */
async function pullNow(subscription: string, maxMessages = 100) {
  const [res] = await suite.raw.subscriber.pull({ subscription, maxMessages, returnImmediately: true });
  return (res.receivedMessages ?? []).map((r) => ({ ackId: r.ackId!, data: Buffer.from(r.message!.data as Uint8Array).toString() }));
}

test("10,000 messages are each delivered exactly once across 3 streaming subscribers", async () => {
  const N = 10_000;
  const { topic, sub } = await suite.topicAndSub();
  const counts = new Map<string, number>();
  const perSubscriber = [0, 0, 0];
  const subscribers = [0, 1, 2].map((i) => {
    const s = suite.emu.client().subscription(sub.name);
    s.on("message", (m: Message) => {
      counts.set(m.id, (counts.get(m.id) ?? 0) + 1);
      perSubscriber[i]++;
      m.ack();
    });
    return s;
  });
  await sleep(300); // let the three clients open their streams before the burst
  topic.setPublishOptions({ batching: { maxMessages: 1000, maxMilliseconds: 5 } });
  const ids = await Promise.all(Array.from({ length: N }, (_, i) => topic.publishMessage({ data: Buffer.from(String(i)) })));
  expect(new Set(ids).size).toBe(N);
  await waitFor(() => counts.size >= N, 30_000, "all 10,000 messages");
  await sleep(500); // a duplicate arriving late would show up here
  const duplicates = [...counts.values()].filter((c) => c > 1).length;
  const lost = ids.filter((id) => !counts.has(id)).length;
  expect({ duplicates, lost, delivered: counts.size }).toEqual({ duplicates: 0, lost: 0, delivered: N });
  expect(perSubscriber.reduce((a, b) => a + b, 0)).toBe(N);
  expect(perSubscriber.every((n) => n > 0)).toBe(true);
  await Promise.all(subscribers.map((s) => s.close()));
}, 60_000);

test("unary Pull, Acknowledge and ModifyAckDeadline through the v1 SubscriberClient", async () => {
  const { topic, sub } = await suite.topicAndSub();
  for (let i = 0; i < 3; i++) await topic.publishMessage({ data: Buffer.from(`p${i}`) });
  const [res] = await suite.raw.subscriber.pull({ subscription: sub.name, maxMessages: 10 });
  const got = res.receivedMessages ?? [];
  expect(got.map((r) => Buffer.from(r.message!.data as Uint8Array).toString()).sort()).toEqual(["p0", "p1", "p2"]);
  expect(new Set(got.map((r) => r.ackId)).size).toBe(3);
  const [first, second, third] = got.map((r) => r.ackId!);
  await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds: [first, third] });
  await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [second], ackDeadlineSeconds: 0 });
  const again = await pullNow(sub.name);
  expect(again.length).toBe(1);
  expect(again[0].data).toBe(Buffer.from(got[1].message!.data as Uint8Array).toString());
  expect(again[0].ackId).not.toBe(second);
  await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds: [again[0].ackId] });
  expect(await pullNow(sub.name)).toEqual([]);
}, 15_000);

test("a nacked message is redelivered; deliveryAttempt is 0 without a dead-letter policy", async () => {
  const { topic, sub } = await suite.topicAndSub();
  const seen: Message[] = [];
  sub.on("message", (m: Message) => {
    seen.push(m);
    if (seen.length === 1) m.nack();
    else m.ack();
  });
  const id = await topic.publishMessage({ data: Buffer.from("again") });
  await waitFor(() => seen.length >= 2, 5000, "the redelivery");
  expect(seen.slice(0, 2).map((m) => m.id)).toEqual([id, id]);
  expect(seen[1].ackId).not.toBe(seen[0].ackId);
  expect(seen.map((m) => m.deliveryAttempt)).toEqual(seen.map(() => 0));
  await sleep(200);
  expect(seen.length).toBe(2); // acked: no third delivery
  await sub.close();
}, 15_000);

test("with a dead-letter policy deliveryAttempt counts 1, 2, 3 across nacks", async () => {
  const [dlq] = await suite.ps.createTopic(unique("dlq"));
  const { topic, sub } = await suite.topicAndSub({ deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 5 } });
  const attempts: number[] = [];
  sub.on("message", (m: Message) => {
    attempts.push(m.deliveryAttempt);
    if (attempts.length < 3) m.nack();
    else m.ack();
  });
  await topic.publishMessage({ data: Buffer.from("dl") });
  await waitFor(() => attempts.length >= 3, 5000, "three deliveries");
  expect(attempts).toEqual([1, 2, 3]);
  await sub.close();
}, 15_000);

test("after max_delivery_attempts nacks the message moves to the dead-letter topic", async () => {
  const { topic, sub, dlqSub } = await withDeadLetters(suite.ps);
  const attempts: number[] = [];
  sub.on("message", (m: Message) => {
    attempts.push(m.deliveryAttempt);
    m.nack();
  });
  await topic.publishMessage({ data: Buffer.from("poison"), attributes: { origin: "main" } });
  const [dead] = await receive(dlqSub, 1, { ms: 5000 });
  expect(dead.data.toString()).toBe("poison");
  expect(dead.attributes.origin).toBe("main");
  await sleep(300);
  expect(attempts).toEqual([1, 2, 3, 4, 5]);
  await sub.close();
  await dlqSub.close();
}, 15_000);

test("an expired ack deadline redelivers the message (pull, modAck 1 s, no ack)", async () => {
  const { topic, sub } = await suite.topicAndSub({ ackDeadlineSeconds: 10 });
  await topic.publishMessage({ data: Buffer.from("expire") });
  const [first] = await pullNow(sub.name);
  expect(first?.data).toBe("expire");
  await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [first.ackId], ackDeadlineSeconds: 1 });
  await suite.emu.advance("999ms");
  expect(await pullNow(sub.name)).toEqual([]); // still leased
  await suite.emu.advance("1ms");
  const again = await pullNow(sub.name);
  expect(again.map((m) => m.data)).toEqual(["expire"]);
  expect(again[0].ackId).not.toBe(first.ackId);
  // The first ack id is stale now: acking it leaves the new lease in place.
  await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds: [first.ackId] });
  await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [again[0].ackId], ackDeadlineSeconds: 0 });
  expect((await pullNow(sub.name)).map((m) => m.data)).toEqual(["expire"]);
}, 15_000);

test("extending the deadline with ModifyAckDeadline prevents redelivery", async () => {
  const { topic, sub } = await suite.topicAndSub({ ackDeadlineSeconds: 10 });
  await topic.publishMessage({ data: Buffer.from("extend") });
  const [first] = await pullNow(sub.name);
  await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [first.ackId], ackDeadlineSeconds: 1 });
  await suite.emu.advance("600ms");
  await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [first.ackId], ackDeadlineSeconds: 5 });
  await suite.emu.advance("4999ms"); // past the 1 s deadline, 1 ms before the extended one
  expect(await pullNow(sub.name)).toEqual([]);
  await suite.emu.advance("1ms");
  const again = await pullNow(sub.name);
  expect(again.map((m) => m.data)).toEqual(["extend"]);
  await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds: [again[0].ackId] });
  await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [again[0].ackId], ackDeadlineSeconds: 0 });
  expect(await pullNow(sub.name)).toEqual([]); // acked: the late nack of its ack id changes nothing
}, 15_000);

test("a cancelled stream's unacked messages go to another subscriber after their deadline", async () => {
  const { topic, sub } = await suite.topicAndSub();
  for (let i = 0; i < 5; i++) await topic.publishMessage({ data: Buffer.from(`c${i}`) });
  const stream = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 10 });
  await waitFor(() => stream.received.length >= 5, 5000, "the first stream's deliveries");
  const ackIds = stream.received.map((m) => m.ackId);
  stream.write({ modifyDeadlineAckIds: ackIds, modifyDeadlineSeconds: ackIds.map(() => 1) });
  await sleep(100);
  stream.cancel();
  await sleep(100);
  expect(await pullNow(sub.name)).toEqual([]); // leased until the deadline, not nacked by the cancel
  await suite.emu.advance("1s");
  const got = await receive(sub, 5, { ms: 5000 });
  expect(got.map((m) => m.data.toString()).sort()).toEqual(["c0", "c1", "c2", "c3", "c4"]);
  await sub.close();
}, 15_000);

// A closed stream's message comes back when its lease ends: `held` before it, not 1 ms later.
for (const c of [
  { what: "a modacked message redelivers it at its deadline", data: "slow", streamAckDeadlineSeconds: 10, modack: 10, held: "9999ms" },
  { what: "a message the client never touched redelivers it after the 1 s grace", data: "in flight", streamAckDeadlineSeconds: 600, held: "999ms" },
]) {
  test(`a stream that closes with ${c.what}`, async () => {
    const { topic, sub } = await suite.topicAndSub();
    await topic.publishMessage({ data: Buffer.from(c.data) });
    const stream = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: c.streamAckDeadlineSeconds });
    await waitFor(() => stream.received.length >= 1, 5000, "the first delivery");
    if (c.modack) await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [stream.received[0].ackId], ackDeadlineSeconds: c.modack });
    stream.cancel();
    await sleep(100);
    await suite.emu.advance(c.held);
    expect(await pullNow(sub.name)).toEqual([]);
    await suite.emu.advance("1ms");
    const [m] = await receive(sub, 1, { ms: 5000 });
    expect(m.data.toString()).toBe(c.data);
    await sub.close();
  }, 15_000);
}

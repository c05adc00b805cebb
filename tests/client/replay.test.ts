/**
 * Replay through the official Node client: snapshots, seek to a time and to a snapshot, topic
 * retention, retain_acked_messages, exactly-once ack responses and dead-letter attributes.
 */
import { expect, test } from "bun:test";
import { AckResponses, type Message, type Subscription } from "@google-cloud/pubsub";
import { PROJECT, unique, waitFor } from "../helpers/emulator.ts";
import { grpcCode, pullUntil, sleep, topicPath } from "../helpers/raw-clients.ts";
import { receive, collect } from "../helpers/receive.ts";
import { clientSuite, withDeadLetters } from "../helpers/client-suite.ts";

const suite = clientSuite();
const T = 20_000;
const FAILED_PRECONDITION = 9;
const texts = (ms: Message[]) => ms.map((m) => m.data.toString());

/** Unary pulls (and acks) until `n` messages arrived; their data in order. */
async function pullAll(sub: string, n: number, ms = 5000): Promise<string[]> {
  return (await pullUntil(suite.raw.subscriber, sub, n, ms)).map((r) => Buffer.from(r.message!.data as Uint8Array).toString());
}

test("create, list and delete snapshots; seek to a snapshot replays what came after it", async () => {
  const { topic, sub } = await suite.topicAndSub();
  const snapId = unique("snap");
  const [snapshot] = await sub.createSnapshot(snapId);
  expect(snapshot.name).toBe(`projects/${PROJECT}/snapshots/${snapId}`);
  const [all] = await suite.ps.getSnapshots();
  expect(all.map((s) => s.name)).toContain(snapshot.name);
  const [names] = await suite.raw.publisher.listTopicSnapshots({ topic: topic.name });
  expect(names).toEqual([snapshot.name]);

  await topic.publishMessage({ data: Buffer.from("after-snapshot") });
  expect(texts(await receive(sub, 1))).toEqual(["after-snapshot"]);
  await sub.seek(snapId);
  expect(texts(await receive(sub, 1))).toEqual(["after-snapshot"]);
  await sub.close();
  await snapshot.delete();
  const [left] = await suite.ps.getSnapshots();
  expect(left.map((s) => s.name)).not.toContain(snapshot.name);
}, T);

test("seek to a message's publish time replays it; a future time purges the backlog", async () => {
  const { topic, sub } = await suite.topicAndSub({ retainAckedMessages: true });
  await topic.publishMessage({ data: Buffer.from("one") });
  const [first] = await receive(sub, 1);
  await sub.seek(first.publishTime);
  const [again] = await receive(sub, 1);
  expect(again.id).toBe(first.id);
  await sub.close();
  await topic.publishMessage({ data: Buffer.from("purged") });
  await sub.seek(new Date("3000-01-01"));
  await topic.publishMessage({ data: Buffer.from("kept") });
  expect(await pullAll(sub.name, 1)).toEqual(["kept"]);
}, T);

test("a snapshot of one subscription replays into another subscription of the same topic", async () => {
  const { topic, sub: a } = await suite.topicAndSub();
  const [b] = await topic.createSubscription(unique("s"));
  await topic.publishMessage({ data: Buffer.from("1") });
  const [snapshot] = await a.createSnapshot(unique("snap"));
  await topic.publishMessage({ data: Buffer.from("2") });
  expect((await pullAll(b.name, 2)).sort()).toEqual(["1", "2"]);
  await b.seek(snapshot.name);
  expect((await pullAll(b.name, 2)).sort()).toEqual(["1", "2"]);
}, T);

test("seeking to a snapshot of another topic is FAILED_PRECONDITION", async () => {
  const one = await suite.topicAndSub();
  const two = await suite.topicAndSub();
  const [snapshot] = await one.sub.createSnapshot(unique("snap"));
  expect(await grpcCode(two.sub.seek(snapshot.name))).toBe(FAILED_PRECONDITION);
}, T);

test("topic retention: a subscription created later replays earlier messages with a seek", async () => {
  const [topic] = await suite.ps.createTopic({ name: unique("t"), messageRetentionDuration: { seconds: 3600 } });
  const before = new Date(Date.now() - 1000);
  await topic.publishMessage({ data: Buffer.from("early") });
  const [sub] = await topic.createSubscription(unique("s"));
  expect(await pullAll(sub.name, 1, 300)).toEqual([]);
  await sub.seek(before);
  expect(await pullAll(sub.name, 1)).toEqual(["early"]);
}, T);

test("retain_acked_messages: acked messages replay after a seek back", async () => {
  const { topic, sub } = await suite.topicAndSub({ retainAckedMessages: true });
  const start = new Date(Date.now() - 1000);
  for (const d of ["a", "b"]) await topic.publishMessage({ data: Buffer.from(d) });
  expect((await pullAll(sub.name, 2)).sort()).toEqual(["a", "b"]);
  await sub.seek(start);
  expect((await pullAll(sub.name, 2)).sort()).toEqual(["a", "b"]);
}, T);

test("exactly-once: ackWithResponse is SUCCESS for a valid ack id and INVALID for a stale one", async () => {
  const { topic, sub } = await suite.topicAndSub({ enableExactlyOnceDelivery: true });
  const got = collect(sub);
  await topic.publishMessage({ data: Buffer.from("once") });
  await waitFor(() => got.length >= 1, 5000, "the first delivery");
  expect(sub.isOpen).toBe(true);
  // A seek ends every lease: the first ack id goes stale and the message comes again.
  await sub.seek(new Date(Date.now() - 60_000));
  await waitFor(() => got.length >= 2, 5000, "the redelivery");
  // The client reports a failed ack by rejecting with an AckError carrying the response code.
  const stale = await got[0].ackWithResponse().catch((e: { errorCode?: string }) => e.errorCode);
  expect(stale).toBe(AckResponses.Invalid);
  expect(await got[1].ackWithResponse()).toBe(AckResponses.Success);
  await sub.close();
}, T);

test("dead-lettered messages carry the CloudPubSubDeadLetterSource* attributes", async () => {
  const { topic, sub, dlqSub } = await withDeadLetters(suite.ps);
  const nacking = nackAll(sub);
  await topic.publishMessage({ data: Buffer.from("poison"), attributes: { origin: "test" } });
  const [dead] = await receive(dlqSub, 1, { ms: 10_000 });
  await nacking.close();
  await dlqSub.close();
  expect(dead.data.toString()).toBe("poison");
  const attrs = dead.attributes;
  expect(attrs.origin).toBe("test");
  expect(attrs.CloudPubSubDeadLetterSourceDeliveryCount).toBe("5");
  expect(attrs.CloudPubSubDeadLetterSourceSubscription).toBe(sub.name.split("/").pop()!);
  expect(attrs.CloudPubSubDeadLetterSourceSubscriptionProject).toBe(PROJECT);
  expect(attrs.CloudPubSubDeadLetterSourceTopicPublishTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
}, T);

test("Seek and CreateSnapshot on missing resources are NOT_FOUND", async () => {
  const missing = suite.ps.subscription(unique("missing"));
  expect(await grpcCode(missing.seek(new Date()))).toBe(5);
  expect(await grpcCode(suite.raw.publisher.listTopicSnapshots({ topic: topicPath(unique("nope")) }))).toBe(5);
}, T);

/** Nacks every message `sub` receives until closed. */
function nackAll(sub: Subscription) {
  const onMessage = (m: Message) => m.nack();
  sub.on("message", onMessage);
  return { close: () => (sub.removeListener("message", onMessage), sub.close()) };
}

/** Publishing through the official client: exact round trips, large messages, validation errors. */
import { expect, test } from "bun:test";
import { unique } from "../helpers/emulator.ts";
import { grpcCode, subPath, topicPath } from "../helpers/raw-clients.ts";
import { receive } from "../helpers/receive.ts";
import { clientSuite } from "../helpers/client-suite.ts";

const INVALID_ARGUMENT = 3;
const T = 15_000;

const suite = clientSuite();


test("binary data with all 256 byte values, unicode attributes and ordering key read back exactly", async () => {
  const { topic, sub } = await suite.topicAndSub();
  const ordered = suite.ps.topic(topic.name, { messageOrdering: true });
  const data = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7 + 3) % 256));
  expect(new Set(data).size).toBe(256);
  const attributes = { "ключ": "значение", emoji: "🚀✨ ok", cjk: "日本語テキスト", empty: "", "a.b/c": "x=y&z" };
  const before = Date.now();
  const id = await ordered.publishMessage({ data, attributes, orderingKey: "key-ü-1" });
  const [m] = await receive(sub, 1);
  expect(m.id).toBe(id);
  expect(Buffer.compare(m.data, data)).toBe(0);
  expect(m.attributes).toEqual(attributes);
  expect(m.orderingKey).toBe("key-ü-1");
  const published = m.publishTime.getTime();
  expect(published).toBeGreaterThanOrEqual(before - 1000);
  expect(published).toBeLessThanOrEqual(Date.now() + 1000);
  await sub.close();
}, T);

test("message ids are unique and match the ids publish returned", async () => {
  const { topic, sub } = await suite.topicAndSub();
  const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => topic.publishMessage({ data: Buffer.from(`m${i}`) })));
  expect(new Set(ids).size).toBe(50);
  const got = await receive(sub, 50);
  expect(got.map((m) => m.id).sort()).toEqual([...ids].sort());
  for (const m of got) expect(ids[Number(m.data.toString().slice(1))]).toBe(m.id);
  await sub.close();
}, T);

test("attributes-only and data-only messages round-trip", async () => {
  const { topic, sub } = await suite.topicAndSub();
  await topic.publishMessage({ attributes: { only: "attrs" } });
  await topic.publishMessage({ data: Buffer.from([0]) });
  const got = await receive(sub, 2);
  const attrsOnly = got.find((m) => m.attributes.only === "attrs")!;
  expect(attrsOnly.data.length).toBe(0);
  const dataOnly = got.find((m) => m !== attrsOnly)!;
  expect([...dataOnly.data]).toEqual([0]);
  expect(dataOnly.attributes).toEqual({});
  await sub.close();
}, T);

test("a 9 MB message round-trips intact", async () => {
  const big = suite.emu.client({ "grpc.max_receive_message_length": 20 * 1024 * 1024 } as never);
  const [topic] = await big.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"));
  const data = Buffer.alloc(9 * 1024 * 1024);
  for (let i = 0; i < data.length; i += 4) data.writeUInt32LE((i ^ 0x9e3779b9) >>> 0, i);
  const id = await topic.publishMessage({ data, attributes: { size: "9MiB" } });
  const [m] = await receive(sub, 1, { ms: 10_000 });
  expect(m.id).toBe(id);
  expect(m.data.length).toBe(data.length);
  expect(Buffer.compare(m.data, data)).toBe(0);
  expect(m.attributes).toEqual({ size: "9MiB" });
  await sub.close();
}, 20_000);

test("a message with 101 attributes is rejected with INVALID_ARGUMENT", async () => {
  const { topic } = await suite.topicAndSub();
  const attributes = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, "v"]));
  expect(await grpcCode(topic.publishMessage({ data: Buffer.from("x"), attributes }))).toBe(INVALID_ARGUMENT);
  const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, "v"]));
  expect(typeof (await topic.publishMessage({ data: Buffer.from("x"), attributes: hundred }))).toBe("string");
}, T);

test("an empty message is rejected with INVALID_ARGUMENT", async () => {
  const { topic } = await suite.topicAndSub();
  expect(await grpcCode(topic.publishMessage({ data: Buffer.alloc(0) }))).toBe(INVALID_ARGUMENT);
}, T);

test("oversized attribute keys and values are rejected with INVALID_ARGUMENT", async () => {
  const { topic } = await suite.topicAndSub();
  const data = Buffer.from("x");
  expect(await grpcCode(topic.publishMessage({ data, attributes: { ["k".repeat(257)]: "v" } }))).toBe(INVALID_ARGUMENT);
  expect(await grpcCode(topic.publishMessage({ data, attributes: { k: "v".repeat(1025) } }))).toBe(INVALID_ARGUMENT);
  // The limit is in bytes: 513 two-byte characters are 1026 bytes.
  expect(await grpcCode(topic.publishMessage({ data, attributes: { k: "é".repeat(513) } }))).toBe(INVALID_ARGUMENT);
  expect(typeof (await topic.publishMessage({ data, attributes: { ["k".repeat(256)]: "v".repeat(1024) } }))).toBe("string");
}, T);

test("a raw publish of 1001 messages, or of none, is rejected with INVALID_ARGUMENT", async () => {
  const { topic } = await suite.topicAndSub();
  const messages = Array.from({ length: 1001 }, () => ({ data: Buffer.from("x") }));
  expect(await grpcCode(suite.raw.publisher.publish({ topic: topic.name, messages }))).toBe(INVALID_ARGUMENT);
  expect(await grpcCode(suite.raw.publisher.publish({ topic: topic.name, messages: [] }))).toBe(INVALID_ARGUMENT);
  const [ok] = await suite.raw.publisher.publish({ topic: topic.name, messages: messages.slice(1) });
  expect(ok.messageIds?.length).toBe(1000);
}, T);

test("data over 10 MB is rejected with INVALID_ARGUMENT and nothing is delivered", async () => {
  const tid = unique("t");
  const sid = unique("s");
  await suite.raw.publisher.createTopic({ name: topicPath(tid) });
  await suite.raw.subscriber.createSubscription({ name: subPath(sid), topic: topicPath(tid) });
  const data = Buffer.alloc(10_000_001, 1);
  expect(await grpcCode(suite.raw.publisher.publish({ topic: topicPath(tid), messages: [{ data }] }))).toBe(INVALID_ARGUMENT);
  const [res] = await suite.raw.subscriber.pull({ subscription: subPath(sid), maxMessages: 10, returnImmediately: true });
  expect(res.receivedMessages ?? []).toHaveLength(0);
}, T);

/**
 * JavaScript UDFs in the worker pool (--transform-workers): a UDF busy near its time limit holds up
 * only its own topic (the event loop and other topics go on), which --transform-workers 0 (on the
 * event loop) does not; order and ordering keys hold through topic and subscription transforms
 * on many concurrent Publishes; a server's workers stop with it and a second server starts its own.
 */
import { describe, expect, test } from "bun:test";
import type { CreateSubscriptionOptions } from "@google-cloud/pubsub";
import { startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";
import { WorkerPool } from "../../src/transforms/udf-pool.ts";
import { rawClients, type RawClients } from "../helpers/raw-clients.ts";
import { waitFor } from "../helpers/wait.ts";

const UDF = (name: string, body: string) => ({ javascriptUdf: { functionName: name, code: `function ${name}(message, metadata) { ${body} }` } });
// Busy for 80 ms of the 100 ms limit, then passes the message on.
const BUSY = UDF("busy", "const until = Date.now() + 80; while (Date.now() < until) {} return message;");
const TAG = UDF("tag", "message.attributes.seen = '1'; return message;");

/** Publishes 5 messages in one request to a busy topic, then 1 to a quick one; which answer came first. */
async function race(workers: number): Promise<string[]> {
  const emu = await startTestEmulator({ transformWorkers: workers });
  try {
    const ps = emu.client();
    const [busy] = await ps.createTopic({ name: unique("busy"), messageTransforms: [BUSY] } as never);
    const [quick] = await ps.createTopic({ name: unique("quick"), messageTransforms: [TAG] } as never);
    // Each topic's first message, so both have compiled chains and started workers before the race.
    await Promise.all([busy.publishMessage({ data: Buffer.from("warm") }), quick.publishMessage({ data: Buffer.from("warm") })]);
    const order: string[] = [];
    const batched = busy.publisher.settings.batching!;
    batched.maxMessages = 5;
    batched.maxMilliseconds = 1;
    const slow = Promise.all(Array.from({ length: 5 }, (_, i) => busy.publishMessage({ data: Buffer.from(`b${i}`) }))).then(() => order.push("busy"));
    await Bun.sleep(30);
    const fast = quick.publishMessage({ data: Buffer.from("q") }).then(() => order.push("quick"));
    await Promise.all([slow, fast]);
    return order;
  } finally {
    await emu.close();
  }
}

describe("isolation", () => {
  test("with workers, a topic whose UDF runs for 5 × 80 ms does not hold up another topic's Publish", async () => {
    expect(await race(2)).toEqual(["quick", "busy"]);
  }, 30_000);

  test("with --transform-workers 0 (the event loop) it does: the other Publish is answered after", async () => {
    expect(await race(0)).toEqual(["busy", "quick"]);
  }, 30_000);
});

test("order and ordering keys hold through topic and subscription transforms over many concurrent Publishes", async () => {
  const emu = await startTestEmulator();
  try {
    const ps = emu.client();
    const [topic] = await ps.createTopic({ name: unique("t"), messageTransforms: [UDF("up", "message.data = message.data.toUpperCase(); return message;")] } as never);
    const [sub] = await topic.createSubscription(unique("s"), { enableMessageOrdering: true, messageTransforms: [TAG] } as CreateSubscriptionOptions);
    topic.setPublishOptions({ messageOrdering: true, batching: { maxMessages: 7, maxMilliseconds: 1 } });
    const n = 300;
    const keys = ["k1", "k2", "k3"];
    await Promise.all(Array.from({ length: n }, (_, i) => topic.publishMessage({ data: Buffer.from(`m${i}`), orderingKey: keys[i % 3] })));
    const got = await receive(sub, n, { ms: 20_000 });
    for (const key of keys) {
      const seen = got.filter((m) => m.orderingKey === key).map((m) => m.data.toString());
      const sent = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === keys.indexOf(key)).map((i) => `M${i}`);
      expect(seen).toEqual(sent);
    }
    expect(got.every((m) => m.attributes.seen === "1")).toBe(true);
    await sub.close();
  } finally {
    await emu.close();
  }
}, 60_000);

/** A fresh server, a topic (with `topicTransforms`) and a subscription (with `subTransforms`), raw v1 clients on them. */
async function withTopicAndSub(
  transforms: { topic?: unknown[]; sub?: unknown[] },
  fn: (o: { emu: TestEmulator; raw: RawClients; topic: string; sub: string }) => Promise<void>,
): Promise<void> {
  const emu = await startTestEmulator();
  const raw = rawClients(emu);
  try {
    const ps = emu.client();
    const [topic] = await ps.createTopic({ name: unique("t"), messageTransforms: transforms.topic } as never);
    const [sub] = await topic.createSubscription(unique("s"), { messageTransforms: transforms.sub } as CreateSubscriptionOptions);
    await fn({ emu, raw, topic: topic.name, sub: sub.name });
  } finally {
    await raw.close();
    await emu.close();
  }
}

test("a message is ready once its Publish is answered: a Pull with return_immediately right after gets it transformed, in order", async () => {
  await withTopicAndSub({ sub: [TAG] }, async ({ raw, topic, sub }) => {
    const [published] = await raw.publisher.publish({ topic, messages: ["a", "b", "c"].map((d) => ({ data: Buffer.from(d) })) });
    const [res] = await raw.subscriber.pull({ subscription: sub, maxMessages: 10, returnImmediately: true });
    const got = res.receivedMessages ?? [];
    expect(got.map((m) => m.message?.messageId)).toEqual(published.messageIds!);
    expect(got.map((m) => [Buffer.from(m.message!.data as Uint8Array).toString(), m.message!.attributes?.seen])).toEqual([
      ["a", "1"],
      ["b", "1"],
      ["c", "1"],
    ]);
  });
}, 30_000);

test("a Publish waits for its subscriptions' transforms only so long: a UDF spinning on every message does not hold the answer for all of them", async () => {
  await withTopicAndSub({ sub: [UDF("spin", "for (;;) {}")] }, async ({ emu, raw, topic, sub }) => {
    const failed = async () => (await emu.admin("GET", `/emulator/v1/${sub}`)).messageTransforms.failed as number;
    // 30 messages at 100 ms each: 3 s of transforms, past the answer's bound.
    await raw.publisher.publish({ topic, messages: Array.from({ length: 30 }, (_, i) => ({ data: Buffer.from(`m${i}`) })) });
    expect(await failed()).toBeLessThan(30);
    await waitFor(async () => (await failed()) === 30, 30_000, "every message's transform to have failed");
  });
}, 60_000);

test("a Publish the topic's transforms filter whole gets one id per message, each its own", async () => {
  await withTopicAndSub({ topic: [UDF("drop", "return message.attributes.skip ? null : message;")] }, async ({ raw, topic }) => {
    const [alone] = await raw.publisher.publish({ topic, messages: [{ data: Buffer.from("gone"), attributes: { skip: "1" } }] });
    const [mixed] = await raw.publisher.publish({ topic, messages: [{ data: Buffer.from("x"), attributes: { skip: "1" } }, { data: Buffer.from("kept") }] });
    const ids = [...alone.messageIds!, ...mixed.messageIds!];
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });
}, 30_000);

test("a server's workers stop with it; a second server in the same process runs its own", async () => {
  for (let round = 0; round < 2; round++) {
    const emu = await startTestEmulator({ transformWorkers: 2 });
    const ps = emu.client();
    const [topic] = await ps.createTopic({ name: unique("t"), messageTransforms: [TAG] } as never);
    const [sub] = await topic.createSubscription(unique("s"));
    await topic.publishMessage({ data: Buffer.from(`r${round}`) });
    const [m] = await receive(sub, 1, { ms: 10_000 });
    expect(m.attributes.seen).toBe("1");
    await sub.close();
    await emu.close();
  }
}, 60_000);

test("the pool: workers start as work needs them (a spare while all are busy), close() ends them and fails what comes after", async () => {
  const pool = new WorkerPool(2);
  const chain = pool.chain([{ kind: "javascript_udf", name: "tag", code: TAG.javascriptUdf.code }]);
  const input = (s: string) => ({ data: Buffer.from(s), attributes: { a: "1" }, meta: { publish_time: "2026-01-01T00:00:00Z" } });
  expect(pool.workers).toBe(0);
  const outs = await chain.run([input("x"), input("y")], false);
  expect(outs.map((o) => o?.kind === "message" && [Buffer.from(o.data).toString(), { ...o.attributes }])).toEqual([
    ["x", { a: "1", seen: "1" }],
    ["y", { a: "1", seen: "1" }],
  ]);
  // The one that ran it, and a spare started while that one was busy.
  expect(pool.workers).toBe(2);
  pool.close();
  expect(pool.workers).toBe(0);
  expect(await chain.run([input("z")], false)).toEqual([{ kind: "failed", step: 0, error: "The emulator is stopping" }]);
}, 30_000);

test("the pool: Publishes given together cross together, each stopping at its own first failure", async () => {
  const pool = new WorkerPool(1);
  try {
    const chain = pool.chain([{ kind: "javascript_udf", name: "pick", code: "function pick(m) { if (m.data === 'bad') throw new Error('bad!'); if (m.data === 'drop') return null; return m; }" }]);
    const input = (s: string) => ({ data: Buffer.from(s), attributes: {}, meta: { publish_time: "2026-01-01T00:00:00Z" } });
    const kinds = (outs: Awaited<ReturnType<typeof chain.run>>) => outs.map((o) => (o === undefined ? "not run" : o.kind === "failed" ? `failed: ${o.error}` : o.kind));
    const [a, b, c] = await Promise.all([
      chain.run([input("ok"), input("bad"), input("ok"), input("bad")], true),
      chain.run([input("drop"), input("ok")], true),
      chain.run([input("bad"), input("ok")], false),
    ]);
    expect(kinds(a)).toEqual(["message", "failed: Error: bad!", "not run", "not run"]);
    expect(kinds(b)).toEqual(["filtered", "message"]);
    expect(kinds(c)).toEqual(["failed: Error: bad!", "message"]);
  } finally {
    pool.close();
  }
}, 30_000);

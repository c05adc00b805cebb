/**
 * Large Publish requests are read into buffers that are used again once a Publish says none of
 * its messages is held (a topic without subscriptions or retention: grpc/call/body-pool.ts).
 * Messages that a subscription or a topic's retention holds keep their bytes while later large
 * requests to a topic nobody holds go through the same buffers.
 */
import { expect, test } from "bun:test";
import { unique } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";
import { clientSuite } from "../helpers/client-suite.ts";

const T = 30_000;
const suite = clientSuite();

/** One Publish request of `n` 1 KiB messages (≈ n KiB: past the pool's 64 KiB floor), each filled with its own byte. */
const messages = (n: number, seed: number) => Array.from({ length: n }, (_, i) => ({ data: Buffer.alloc(1024, (seed * 31 + i) % 251), attributes: { i: String(i) } }));
const expectIntact = (got: { data: Buffer; attributes: Record<string, string> }[], seed: number) => {
  for (const m of got) expect(m.data.equals(Buffer.alloc(1024, (seed * 31 + Number(m.attributes.i)) % 251))).toBe(true);
};

test("messages a subscription holds keep their bytes while later large requests to an unheld topic reuse buffers", async () => {
  const { topic: held, sub } = await suite.topicAndSub();
  const [free] = await suite.ps.createTopic(unique("free"));
  await suite.raw.publisher.publish({ topic: held.name, messages: messages(400, 1) });
  for (let k = 0; k < 12; k++) await suite.raw.publisher.publish({ topic: free.name, messages: messages(400, 100 + k) });
  await suite.raw.publisher.publish({ topic: held.name, messages: messages(400, 2) });
  for (let k = 0; k < 12; k++) await suite.raw.publisher.publish({ topic: free.name, messages: messages(400, 200 + k) });
  const got = await receive(sub, 800, { ms: 20_000 });
  expect(got.length).toBe(800);
  const ids = got.map((m) => Number(m.id)).sort((a, b) => a - b);
  const firstOfSecond = ids[400]!;
  expectIntact(got.filter((m) => Number(m.id) < firstOfSecond), 1);
  expectIntact(got.filter((m) => Number(m.id) >= firstOfSecond), 2);
  await sub.close();
}, T);

test("messages a topic's retention keeps (no subscription yet) keep their bytes through later large requests", async () => {
  const [kept] = await suite.ps.createTopic({ name: unique("kept"), messageRetentionDuration: { seconds: 600 } });
  const [free] = await suite.ps.createTopic(unique("free"));
  const before = new Date(Date.now() - 1000);
  await suite.raw.publisher.publish({ topic: kept.name, messages: messages(400, 3) });
  for (let k = 0; k < 12; k++) await suite.raw.publisher.publish({ topic: free.name, messages: messages(400, 300 + k) });
  const [sub] = await kept.createSubscription(unique("late"));
  await sub.seek(before);
  const got = await receive(sub, 400, { ms: 20_000 });
  expect(got.length).toBe(400);
  expectIntact(got, 3);
  await sub.close();
}, T);

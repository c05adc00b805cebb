/**
 * Group commit (--commit-window-ms): a kill -9 inside an open group. A long window holds each
 * group open, so the kill lands while publishes and acks the server has already applied in memory
 * wait for their commit, unanswered. Everything answered before survives; the open group is lost
 * whole (its publishes gone, its acks not applied), as its callers were never told otherwise.
 */
import { afterAll, expect, test } from "bun:test";
import { unique } from "../helpers/emulator.ts";
import { rawClients, subPath, topicPath } from "../helpers/raw-clients.ts";
import { spawnServer, type ServerProcess } from "../helpers/server-process.ts";
import { cleanupDataDirs, tempDataDir } from "../helpers/stores.ts";
import { waitFor } from "../helpers/wait.ts";

const running: ServerProcess[] = [];
const start = async (dir: string, window: number) => {
  const s = await spawnServer(["--data-dir", dir, "--commit-window-ms", String(window), "--pull-wait-ms", "200"]);
  running.push(s);
  return s;
};

afterAll(async () => {
  await Promise.all(running.map((s) => s.kill9()));
  cleanupDataDirs();
});

const heldMessages = async (s: ServerProcess) =>
  ((await (await fetch(`http://${s.endpoint}/metrics.json`, { signal: AbortSignal.timeout(5000) })).json()) as { heldMessages: number }).heldMessages;

/** Whether `p` has settled, without waiting for it. */
const settled = async (p: Promise<unknown>) => {
  const pending = Symbol();
  return (await Promise.race([p.then(() => 1, () => 1), Promise.resolve(pending)])) !== pending;
};

test("a kill -9 inside an open group loses nothing answered and nothing of the group comes back half", async () => {
  const dir = tempDataDir();
  // A whole second per group: long enough to see the writes applied and still unanswered.
  const first = await start(dir, 1000);
  const raw = rawClients(first);
  const topic = topicPath(unique("t"));
  const sub = subPath(unique("s"));
  await raw.publisher.createTopic({ name: topic });
  await raw.subscriber.createSubscription({ name: sub, topic, ackDeadlineSeconds: 60 });

  // Answered: 20 messages, then acks for 10 of them.
  const data = (i: number) => Buffer.from(`m${i}`);
  const [published] = await raw.publisher.publish({ topic, messages: Array.from({ length: 20 }, (_, i) => ({ data: data(i) })) });
  const [pulled] = await raw.subscriber.pull({ subscription: sub, maxMessages: 20 });
  const got = pulled.receivedMessages ?? [];
  expect(got.length).toBe(20);
  const [acked, unacked] = [got.slice(0, 10), got.slice(10)];
  await raw.subscriber.acknowledge({ subscription: sub, ackIds: acked.map((r) => r.ackId!) });
  expect(await heldMessages(first)).toBe(10);

  // The open group: 5 more messages and acks for the other 10, applied in memory, not yet answered.
  const late = raw.publisher.publish({ topic, messages: Array.from({ length: 5 }, (_, i) => ({ data: data(100 + i) })) });
  const lateAck = raw.subscriber.acknowledge({ subscription: sub, ackIds: unacked.map((r) => r.ackId!) });
  late.catch(() => {});
  lateAck.catch(() => {});
  await waitFor(async () => (await heldMessages(first)) === 5, 800, "the open group's publish and acks applied in memory");
  expect(await settled(late)).toBe(false);
  expect(await settled(lateAck)).toBe(false);
  await first.kill9();
  await raw.close();

  const second = await start(dir, 2);
  const raw2 = rawClients(second);
  const [res] = await raw2.subscriber.pull({ subscription: sub, maxMessages: 100 });
  const ids = (res.receivedMessages ?? []).map((r) => r.message!.messageId!).sort();
  // Exactly the answered messages whose acks were not answered: nothing of the open group.
  expect(ids).toEqual(unacked.map((r) => r.message!.messageId!).sort());
  expect(ids.every((id) => published.messageIds!.includes(id))).toBe(true);
  expect(await heldMessages(second)).toBe(10);
  await raw2.close();
  await second.kill9();
}, 60_000);

/**
 * Subscribers that stop while holding messages: the official client nacks what it holds as it
 * closes, raw clients nack on the stream and cancel or half-close at once. Every message comes
 * back promptly (what was sent to a stream and never modacked, after STREAM_END_GRACE_MS), none
 * stays leased for its ack deadline to a stream that is gone.
 */
import { expect, test } from "bun:test";
import type { Message } from "@google-cloud/pubsub";
import { waitFor } from "../helpers/emulator.ts";
import { openStream, sleep } from "../helpers/raw-clients.ts";
import { clientSuite } from "../helpers/client-suite.ts";
import { STREAM_END_GRACE_MS } from "../../src/core/delivery/stream-session.ts";

const suite = clientSuite();

/** Waiting Pulls until ten messages came back or `ms` ran out; their texts, sorted. */
async function pullTen(subscription: string, ms: number): Promise<string[]> {
  const got: string[] = [];
  const until = Date.now() + ms;
  while (got.length < 10 && Date.now() < until) {
    const [res] = await suite.raw.subscriber.pull({ subscription, maxMessages: 100 }, { timeout: ms });
    for (const r of res.receivedMessages ?? []) got.push(Buffer.from(r.message!.data as Uint8Array).toString());
  }
  return got.sort();
}

const TEN = Array.from({ length: 10 }, (_, i) => `m${i}`).sort();

test("the official client closes holding 10 messages: a new subscriber gets all 10", async () => {
  const { topic, sub } = await suite.topicAndSub();
  const held: Message[] = [];
  sub.on("message", (m: Message) => held.push(m));
  await sleep(200);
  for (const d of TEN) await topic.publishMessage({ data: Buffer.from(d) });
  await waitFor(() => held.length >= 10, 5000, "10 held");
  await sub.close();
  const again = suite.ps.subscription(sub.name);
  const seen = new Set<string>();
  again.on("message", (m: Message) => {
    seen.add(m.data.toString());
    m.ack();
  });
  try {
    await waitFor(() => seen.size >= 10, 5000, "10 again");
  } finally {
    await again.close();
  }
  expect([...seen].sort()).toEqual(TEN);
}, 20_000);

test("the official client acks and closes at once: its batched acks still count, nothing comes again", async () => {
  const { topic, sub } = await suite.topicAndSub();
  let acked = 0;
  sub.on("message", (m: Message) => {
    m.ack();
    acked++;
  });
  await sleep(200);
  for (const d of TEN) await topic.publishMessage({ data: Buffer.from(d) });
  await waitFor(() => acked >= 10, 5000, "10 acked");
  await sub.close(); // the acks are still in the client's batch: they leave after the stream is gone
  const again = suite.ps.subscription(sub.name);
  const seen: string[] = [];
  again.on("message", (m: Message) => {
    seen.push(m.data.toString());
    m.ack();
  });
  await sleep(2 * STREAM_END_GRACE_MS);
  await again.close();
  expect(seen).toEqual([]);
}, 20_000);

for (const how of ["cancel", "half-close"] as const) {
  for (const touched of [true, false]) {
    const what = touched ? "modacked, then nacked on the stream" : "never touched";
    test(`raw stream, messages ${what}, then ${how}: all come back within the grace`, async () => {
      const { topic, sub } = await suite.topicAndSub();
      const s = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 600 });
      await sleep(100);
      for (const d of TEN) await topic.publishMessage({ data: Buffer.from(d) });
      await waitFor(() => s.received.length >= 10, 5000, "10 on the stream");
      const ids = s.received.map((r) => r.ackId);
      if (touched) {
        await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: ids, ackDeadlineSeconds: 600 });
        s.write({ modifyDeadlineAckIds: ids, modifyDeadlineSeconds: ids.map(() => 0) });
      }
      if (how === "cancel") {
        await new Promise((r) => setImmediate(r)); // the nack leaves the client before the cancel
        s.cancel();
      } else s.end();
      expect(await pullTen(sub.name, 4 * STREAM_END_GRACE_MS)).toEqual(TEN);
    }, 20_000);
  }
}

/** Flow control: the official client's limits end to end, and the server's own limits on a raw stream. */
import { expect, test } from "bun:test";
import type { Message } from "@google-cloud/pubsub";
import { unique, waitFor } from "../helpers/emulator.ts";
import { openStream, sleep } from "../helpers/raw-clients.ts";
import { clientSuite } from "../helpers/client-suite.ts";

const suite = clientSuite();


/** A raw stream (ack deadline 60 s, `limits`) on a fresh subscription that holds `n` messages of `bytes`. */
async function streamOf(n: number, bytes: number, limits: Record<string, number>) {
  const { topic, sub } = await suite.topicAndSub();
  await publishN(topic, n, bytes);
  return openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 60, ...limits });
}

/** `stream` got `n` deliveries and, 300 ms later, no more. */
async function settlesAt(stream: { received: unknown[] }, n: number, what: string) {
  await waitFor(() => stream.received.length >= n, 5000, what);
  await sleep(300);
  expect(stream.received.length).toBe(n);
}

async function publishN(topic: { publishMessage(m: { data: Buffer }): Promise<string> }, n: number, bytes = 1) {
  await Promise.all(Array.from({ length: n }, (_, i) => topic.publishMessage({ data: Buffer.alloc(bytes, i % 256) })));
}

test("maxMessages 5 without excess: the handler never holds more than 5 unacked messages", async () => {
  const { topic, sub: created } = await suite.topicAndSub();
  const sub = suite.ps.subscription(created.name, { flowControl: { maxMessages: 5, allowExcessMessages: false } });
  let inHand = 0;
  let maxInHand = 0;
  let handled = 0;
  const ids = new Set<string>();
  let holding = true;
  const held: Message[] = [];
  sub.on("message", (m: Message) => {
    handled++;
    ids.add(m.id);
    maxInHand = Math.max(maxInHand, ++inHand);
    const release = () => {
      inHand--;
      m.ack();
    };
    if (holding) held.push(m);
    else setTimeout(release, 10);
  });
  await publishN(topic, 30);
  await waitFor(() => handled >= 5, 5000, "the first five messages");
  await sleep(600); // held unacked: a sixth must not reach the handler
  expect(handled).toBe(5);
  holding = false;
  for (const m of held.splice(0)) {
    inHand--;
    m.ack();
  }
  await waitFor(() => ids.size >= 30, 10_000, "all 30 messages");
  expect(maxInHand).toBe(5);
  expect(handled).toBe(30);
  await sub.close();
}, 20_000);

test("the server sends at most max_outstanding_messages unacked messages on a stream", async () => {
  const stream = await streamOf(20, 1, { maxOutstandingMessages: 5 });
  await settlesAt(stream, 5, "five deliveries");

  stream.write({ ackIds: stream.received.slice(0, 2).map((m) => m.ackId) });
  await settlesAt(stream, 7, "two more after two acks");

  const nacked = stream.received[2];
  stream.write({ modifyDeadlineAckIds: [nacked.ackId], modifyDeadlineSeconds: [0] });
  await settlesAt(stream, 8, "one more after a nack");
  expect(new Set(stream.received.slice(0, 7).map((m) => m.messageId)).size).toBe(7);
  expect(stream.error).toBeNull();
  stream.cancel();
}, 15_000);

test("the server stops sending once max_outstanding_bytes is reached, and only then", async () => {
  // pubsub.proto: "When there are max_outstanding_bytes or more worth of messages currently sent …
  // that have not yet been acked or nacked, the server will stop sending more messages. The sending
  // of messages resumes once the number of outstanding bytes is less than this value."
  // With 1000-byte messages and a 2500-byte limit: 0, 1000 and 2000 are below it, 3000 is not.
  const stream = await streamOf(10, 1000, { maxOutstandingBytes: 2500 });
  await settlesAt(stream, 3, "three deliveries");
  stream.cancel();
}, 15_000);

test("a message larger than max_outstanding_bytes is still delivered when nothing is outstanding", async () => {
  const stream = await streamOf(3, 4000, { maxOutstandingBytes: 1000 });
  await settlesAt(stream, 1, "the first delivery");
  stream.write({ ackIds: [stream.received[0].ackId] });
  await waitFor(() => stream.received.length >= 2, 5000, "the next one after the ack");
  expect(stream.received[1].data.length).toBe(4000);
  stream.cancel();
}, 15_000);

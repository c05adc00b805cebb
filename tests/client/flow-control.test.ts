/** Flow control: the official client's limits end to end, and the server's own limits on a raw stream. */
import { expect, test } from "bun:test";
import type { Message } from "@google-cloud/pubsub";
import { unique, waitFor } from "../helpers/emulator.ts";
import { openStream, sleep } from "../helpers/raw-clients.ts";
import { clientSuite } from "../helpers/client-suite.ts";

const suite = clientSuite();


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
  const { topic, sub } = await suite.topicAndSub();
  await publishN(topic, 20);
  const stream = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 60, maxOutstandingMessages: 5 });
  await waitFor(() => stream.received.length >= 5, 5000, "five deliveries");
  await sleep(300);
  expect(stream.received.length).toBe(5);

  stream.write({ ackIds: stream.received.slice(0, 2).map((m) => m.ackId) });
  await waitFor(() => stream.received.length >= 7, 5000, "two more after two acks");
  await sleep(300);
  expect(stream.received.length).toBe(7);

  const nacked = stream.received[2];
  stream.write({ modifyDeadlineAckIds: [nacked.ackId], modifyDeadlineSeconds: [0] });
  await waitFor(() => stream.received.length >= 8, 5000, "one more after a nack");
  await sleep(300);
  expect(stream.received.length).toBe(8);
  expect(new Set(stream.received.slice(0, 7).map((m) => m.messageId)).size).toBe(7);
  expect(stream.error).toBeNull();
  stream.cancel();
}, 15_000);

test("the server stops sending once max_outstanding_bytes is reached, and only then", async () => {
  // pubsub.proto: "When there are max_outstanding_bytes or more worth of messages currently sent …
  // that have not yet been acked or nacked, the server will stop sending more messages. The sending
  // of messages resumes once the number of outstanding bytes is less than this value."
  // With 1000-byte messages and a 2500-byte limit: 0, 1000 and 2000 are below it, 3000 is not.
  const { topic, sub } = await suite.topicAndSub();
  await publishN(topic, 10, 1000);
  const stream = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 60, maxOutstandingBytes: 2500 });
  await waitFor(() => stream.received.length >= 1, 5000, "the first delivery");
  await sleep(300);
  expect(stream.received.length).toBe(3);
  stream.cancel();
}, 15_000);

test("a message larger than max_outstanding_bytes is still delivered when nothing is outstanding", async () => {
  const { topic, sub } = await suite.topicAndSub();
  await publishN(topic, 3, 4000);
  const stream = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 60, maxOutstandingBytes: 1000 });
  await waitFor(() => stream.received.length >= 1, 5000, "the first delivery");
  await sleep(300);
  expect(stream.received.length).toBe(1);
  stream.write({ ackIds: [stream.received[0].ackId] });
  await waitFor(() => stream.received.length >= 2, 5000, "the next one after the ack");
  expect(stream.received[1].data.length).toBe(4000);
  stream.cancel();
}, 15_000);

/**
 * What the Rust client gcloud-pubsub 1.8.0's own test_subscribe_pattern case 5 does (exactly-once +
 * ordering, 10 messages in one publish, the client's default max_outstanding_messages 5 for
 * exactly-once, stop after 5 acks, then dispose(): nack what it buffered while its stream is still
 * open, then stop the stream), step by step on a raw stream. It shows what that test's counts
 * depend on (docs/supported.md, "A client that stops early"): messages 6–10 are sent only once 1–5
 * are acked; no copy of a leased message is ever sent; the messages the client nacks come back to
 * the stream that nacked them only REOFFER_MS later, if it is still open.
 */
import { expect, test } from "bun:test";
import { REOFFER_MS } from "../../src/core/subscription/reoffer.ts";
import { clientSuite } from "../helpers/client-suite.ts";
import { unique, waitFor } from "../helpers/emulator.ts";
import { openStream, sleep } from "../helpers/raw-clients.ts";

const suite = clientSuite({ clock: "manual" });

test("exactly-once + ordering, max_outstanding_messages 5: five at a time, never a leased copy; a nack returns to its open stream only after REOFFER_MS", async () => {
  const [topic] = await suite.ps.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { enableExactlyOnceDelivery: true, enableMessageOrdering: true });
  const messages = Array.from({ length: 10 }, (_, i) => ({ data: Buffer.from(`m${i}`), orderingKey: "order1" }));
  const [published] = await suite.raw.publisher.publish({ topic: topic.name, messages });
  const ids = published.messageIds!;

  const stream = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 10, maxOutstandingMessages: 5 });
  await waitFor(() => stream.received.length >= 5, 5000, "the first five");
  await sleep(100);
  // The limit is the server's: the other five wait for room (a client that stops right after its
  // fifth ack may or may not have them yet — the Rust test's 0 or 5).
  expect(stream.received.map((m) => m.messageId)).toEqual(ids.slice(0, 5));

  await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds: stream.received.map((m) => m.ackId) });
  await waitFor(() => stream.received.length >= 10, 5000, "the next five");
  expect(stream.received.map((m) => m.messageId)).toEqual(ids);

  // dispose(): the buffered five are nacked while the stream is still open.
  const buffered = stream.received.slice(5);
  await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: buffered.map((m) => m.ackId), ackDeadlineSeconds: 0 });
  await sleep(100);
  expect(stream.received.length).toBe(10);
  // A client whose stream is still open REOFFER_MS later gets them again, in order — the Rust
  // test's 10 on a slow host (5 nacked + the same 5 redelivered after the nack), never a copy
  // while leased.
  await suite.emu.advance(`${REOFFER_MS}ms`);
  await waitFor(() => stream.received.length >= 15, 5000, "the nacked five again");
  expect(stream.received.slice(10).map((m) => m.messageId)).toEqual(ids.slice(5));
  expect(stream.received.slice(10).every((m) => m.ackId !== buffered[0].ackId)).toBe(true);
  stream.cancel();
});

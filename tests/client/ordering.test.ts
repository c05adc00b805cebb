/** Message ordering through the official client: per-key order, in-order redelivery after a nack. */
import { expect, test } from "bun:test";
import type { Message } from "@google-cloud/pubsub";
import { unique, waitFor } from "../helpers/emulator.ts";
import { grpcCode } from "../helpers/raw-clients.ts";
import { receive } from "../helpers/receive.ts";
import { clientSuite } from "../helpers/client-suite.ts";

const FAILED_PRECONDITION = 9;

const suite = clientSuite();

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** The order in which each index first appeared in `log`. */
const firstAppearances = (log: number[]) => {
  const seen = new Set<number>();
  return log.filter((i) => !seen.has(i) && seen.add(i));
};

test("8 keys × 500 messages arrive in per-key order; a nack redelivers its key in order", async () => {
  const KEYS = 8;
  const PER_KEY = 500;
  const NACK_KEY = "key-3";
  const NACK_AT = 250;
  const [topic] = await suite.ps.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { enableMessageOrdering: true });
  const publisher = suite.ps.topic(topic.name, { messageOrdering: true, batching: { maxMessages: 100, maxMilliseconds: 5 } });

  const log = new Map<string, number[]>(); // every delivery, per key, in handler order
  const acked = new Map<string, number[]>();
  let nackedOnce = false;
  let awaitingRedelivery = false;
  let redeliveredAt = -1; // position in the NACK_KEY log of the redelivered message
  sub.on("message", (m: Message) => {
    const [key, idx] = [m.orderingKey ?? "", Number(m.data.toString().split(":")[1])];
    const l = log.get(key) ?? (log.set(key, []), log.get(key)!);
    l.push(idx);
    if (key === NACK_KEY) {
      if (idx === NACK_AT && !nackedOnce) {
        nackedOnce = awaitingRedelivery = true;
        return m.nack();
      }
      if (awaitingRedelivery && idx === NACK_AT) {
        awaitingRedelivery = false;
        redeliveredAt = l.length - 1;
      } else if (awaitingRedelivery) {
        // Already in hand from the batch before the nack: the service will resend these after it.
        return m.nack();
      }
    }
    m.ack();
    (acked.get(key) ?? (acked.set(key, []), acked.get(key)!)).push(idx);
  });

  const keys = range(0, KEYS).map((k) => `key-${k}`);
  const publishes: Promise<string>[] = [];
  for (let i = 0; i < PER_KEY; i++) {
    for (const key of keys) publishes.push(publisher.publishMessage({ data: Buffer.from(`${key}:${i}`), orderingKey: key }));
  }
  await Promise.all(publishes);
  const total = () => [...acked.values()].reduce((n, a) => n + a.length, 0);
  await waitFor(() => total() >= KEYS * PER_KEY, 30_000, `${KEYS * PER_KEY} acked messages`);
  await sub.close();

  for (const key of keys) {
    expect({ key, order: firstAppearances(log.get(key)!) }).toEqual({ key, order: range(0, PER_KEY) });
    expect({ key, acked: acked.get(key) }).toEqual({ key, acked: range(0, PER_KEY) });
    if (key !== NACK_KEY) expect({ key, deliveries: log.get(key)!.length }).toEqual({ key, deliveries: PER_KEY });
  }
  const nackLog = log.get(NACK_KEY)!;
  expect(nackedOnce).toBe(true);
  expect(redeliveredAt).toBeGreaterThan(0);
  // Once the nacked message comes back, the rest of its key follows it, in order, exactly once.
  expect(nackLog.slice(redeliveredAt)).toEqual(range(NACK_AT, PER_KEY));
  // The messages before the nacked one were delivered once, in order, before it came back.
  expect(nackLog.slice(0, redeliveredAt).filter((i) => i < NACK_AT)).toEqual(range(0, NACK_AT));
}, 60_000);

test("a publish mixing ordering keys is rejected with FAILED_PRECONDITION", async () => {
  const [topic] = await suite.ps.createTopic(unique("t"));
  const mixed = [
    { data: Buffer.from("a"), orderingKey: "a" },
    { data: Buffer.from("b"), orderingKey: "b" },
  ];
  expect(await grpcCode(suite.raw.publisher.publish({ topic: topic.name, messages: mixed }))).toBe(FAILED_PRECONDITION);
  const keyAndNone = [{ data: Buffer.from("a"), orderingKey: "a" }, { data: Buffer.from("b") }];
  expect(await grpcCode(suite.raw.publisher.publish({ topic: topic.name, messages: keyAndNone }))).toBe(FAILED_PRECONDITION);
  const [ok] = await suite.raw.publisher.publish({ topic: topic.name, messages: mixed.map((m) => ({ ...m, orderingKey: "same" })) });
  expect(ok.messageIds?.length).toBe(2);
}, 10_000);

test("messages of one key published in separate requests arrive in publish order", async () => {
  const [topic] = await suite.ps.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { enableMessageOrdering: true });
  for (let i = 0; i < 20; i++) {
    await suite.raw.publisher.publish({ topic: topic.name, messages: [{ data: Buffer.from(String(i)), orderingKey: "k" }] });
  }
  const got = await receive(sub, 20);
  expect(got.map((m) => Number(m.data.toString()))).toEqual(range(0, 20));
  await sub.close();
}, 10_000);

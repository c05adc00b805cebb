/**
 * Delivery and ack processing through the broker (ManualClock): pull 1000 then ack 1000, and
 * each half alone. Every sample starts from a fresh broker holding 1000 published 1 KiB messages
 * (or 1000 already-leased ones), built untimed (see fresh() in fixtures.ts).
 *
 *   bun bench/mitata/ack.bench.ts
 */
import { bench, group } from "mitata";
import type { Broker } from "../../src/core/broker.ts";
import type { Delivery } from "../../src/core/message.ts";
import { TOPIC, assert, brokerWith, dataBatch, fresh, freshAsync, shuffled, subName, main } from "./fixtures.ts";

const SUB = subName(0);
const batch = dataBatch(1000, 1024);

/** A broker with 1000 messages waiting on one subscription. */
function published(): Broker {
  const b = brokerWith(1);
  b.topics.publish(TOPIC, batch);
  return b;
}

/** Delivers synchronously through a StreamingPull-style consumer (what a stream gets on each publish). */
function streamPull(b: Broker): Delivery[] {
  let got: Delivery[] = [];
  const { sub, consumer } = b.subscriptions.streamConsumer(SUB, { ackDeadlineSeconds: 60, deliver: (d) => (got = d) });
  sub.addConsumer(consumer);
  sub.removeConsumer(consumer);
  return got;
}

interface Leased {
  b: Broker;
  ackIds: string[];
}

/** A broker with 1000 leased messages and their ack ids (in delivery order). */
function leased(): Leased {
  const b = published();
  return { b, ackIds: streamPull(b).map((d) => d.ackId) };
}

const ORDER = shuffled(Array.from({ length: 1000 }, (_, i) => i), 9);
function leasedShuffled(): Leased {
  const s = leased();
  return { b: s.b, ackIds: ORDER.map((i) => s.ackIds[i]) };
}

// sanity: everything is delivered, and acking empties the subscription
{
  const { b, ackIds } = leased();
  assert(ackIds.length === 1000, "stream consumer got 1000");
  assert(b.subscriptions.acknowledge(SUB, ackIds).length === 0 && b.stats().backlog === 0, "ack empties the backlog");
  const d = await published().subscriptions.pull(SUB, 1000, true).result;
  assert(d.length === 1000, "Pull returns 1000");
}

group("ack processing, 1000 × 1 KiB on one subscription", () => {
  bench(
    "Pull(1000, returnImmediately) + Acknowledge(1000)",
    freshAsync(published, async (b) => {
      const d = await b.subscriptions.pull(SUB, 1000, true).result;
      return b.subscriptions.acknowledge(SUB, d.map((x) => x.ackId));
    }),
  );
  bench(
    "stream deliver(1000) + Acknowledge(1000)",
    fresh(published, (b) => b.subscriptions.acknowledge(SUB, streamPull(b).map((x) => x.ackId))),
  );
  bench("stream deliver(1000) only", fresh(published, streamPull));
  bench("Acknowledge(1000) only, delivery order", fresh(leased, (s) => s.b.subscriptions.acknowledge(SUB, s.ackIds)));
  bench("Acknowledge(1000) only, shuffled", fresh(leasedShuffled, (s) => s.b.subscriptions.acknowledge(SUB, s.ackIds)));
  bench(
    "10 × Acknowledge(100)",
    fresh(leased, (s) => {
      let invalid = 0;
      for (let i = 0; i < 1000; i += 100) invalid += s.b.subscriptions.acknowledge(SUB, s.ackIds.slice(i, i + 100)).length;
      return invalid;
    }),
  );
  bench("ModifyAckDeadline(1000, 0) (nack)", fresh(leased, (s) => s.b.subscriptions.modifyAckDeadline(SUB, s.ackIds, 0)));
  bench("ModifyAckDeadline(1000, 120) (extend)", fresh(leased, (s) => s.b.subscriptions.modifyAckDeadline(SUB, s.ackIds, 120)));
});

if (import.meta.main) await main();

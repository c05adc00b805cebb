/**
 * Fan-out: Broker.publish of 1000 × 1 KiB messages to a topic with 0, 1, 10 and 50
 * subscriptions (no consumers attached, so this is validate + store once + enqueue per
 * subscription). Each sample gets a fresh broker on a ManualClock, built untimed (see fresh()).
 *
 *   bun bench/mitata/fanout.bench.ts
 */
import { bench, do_not_optimize, group } from "mitata";
import type { Broker } from "../../src/core/broker.ts";
import { TOPIC, brokerWith, dataBatch, fresh, main } from "./fixtures.ts";

const batch = dataBatch(1000, 1024);
const singles = batch.map((m) => [m]);
/** Half the messages (the even ones) pass the filter below. */
const tagged = batch.map((m, i) => ({ ...m, attributes: { parity: i % 2 ? "odd" : "even" } }));
const FILTER = 'attributes.parity = "even"';

group("Broker.publish fan-out, 1000 × 1 KiB", () => {
  for (const subs of [0, 1, 10, 50]) {
    bench(`publish(1000 msgs) → ${subs} subs`, fresh(() => brokerWith(subs), (b: Broker) => b.topics.publish(TOPIC, batch)));
  }
  for (const subs of [1, 50]) {
    bench(
      `1000 × publish(1 msg) → ${subs} subs`,
      fresh(
        () => brokerWith(subs),
        (b: Broker) => {
          for (let i = 0; i < singles.length; i++) do_not_optimize(b.topics.publish(TOPIC, singles[i]));
        },
      ),
    );
  }
  for (const subs of [10, 50]) {
    bench(`publish(1000 msgs) → ${subs} subs, each filtered (50% match)`, fresh(() => brokerWith(subs, FILTER), (b: Broker) => b.topics.publish(TOPIC, tagged)));
  }
});

if (import.meta.main) await main();

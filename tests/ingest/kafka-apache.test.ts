/**
 * A Confluent Cloud import topic against Apache Kafka itself (KRaft, one node; jars from Maven
 * Central): keyed records with headers on three partitions arrive through the official client in
 * order per key, and a topic created on the broker later is picked up without a change.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { confluent, createKafkaTopic, produce, startApacheKafka, type Kfake } from "./kafka-helpers.ts";
import { importTopic, orderedImport, pullN, withRaw } from "./helpers.ts";

let kafka: Kfake;
let emu: TestEmulator;
beforeAll(async () => {
  kafka = await startApacheKafka();
  emu = await startTestEmulator();
}, 900_000);
afterAll(async () => {
  await emu?.close();
  await kafka?.stop();
});

test("records arrive in order per key with their headers as attributes", async () => {
  await createKafkaTopic(kafka.addr, "orders", 3);
  const records = Array.from({ length: 30 }, (_, i) => ({ key: `k${i % 3}`, value: `v${i}`, headers: { seq: String(i) } }));
  await produce(kafka.addr, "orders", records.slice(0, 15));
  const { topic, sub, got } = await orderedImport(emu.client(), confluent(kafka.addr, "orders"));
  try {
    await waitFor(() => got.length >= 15, 20_000, "15 records");
    await produce(kafka.addr, "orders", records.slice(15));
    await waitFor(() => got.length >= 30, 20_000, "30 records");
    await Bun.sleep(300);
  } finally {
    await sub.close();
  }
  expect(got.length).toBe(30);
  for (const k of ["k0", "k1", "k2"]) {
    expect(got.filter((m) => m.orderingKey === k).map((m) => m.attributes.seq)).toEqual(records.flatMap((r, i) => (r.key === k ? [String(i)] : [])));
  }
  expect(got.every((m) => m.data.toString() === `v${m.attributes.seq}`)).toBe(true);
  expect(emu.streams.status(topic)?.state).toBe("ACTIVE");
}, 60_000);

test("TOPIC_NOT_FOUND until the topic is created on the broker", async () => {
  const name = unique("later");
  await withRaw(emu, async (raw) => {
    const { topic, sub } = await importTopic(emu.client(), confluent(kafka.addr, name));
    await waitFor(() => emu.streams.status(topic.name)?.state === "TOPIC_NOT_FOUND", 15_000, "TOPIC_NOT_FOUND");
    await createKafkaTopic(kafka.addr, name);
    await produce(kafka.addr, name, [{ value: "late" }]);
    expect((await pullN(raw, sub.name, 1, 20_000)).map((m) => m.data)).toEqual(["late"]);
    expect(emu.streams.status(topic.name)?.state).toBe("ACTIVE");
  });
}, 60_000);

/**
 * Confluent Cloud and Amazon MSK import topics against a real Kafka-protocol broker (kfake):
 * records arrive through the official client as messages, in order per key; states follow the
 * broker (ACTIVE, TOPIC_NOT_FOUND, UNREACHABLE_BOOTSTRAP_SERVER, CLUSTER_NOT_FOUND, permission
 * denied) and recover by themselves.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PubSub } from "@google-cloud/pubsub";
import { spawnServer } from "../helpers/server-process.ts";
import { startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { confluent, createKafkaTopic, msk, produce, startKfake, type Kfake } from "./kafka-helpers.ts";
import { importTopic, ingestionStates, orderedImport, pullN, rawClients, receiveAround, waitSourceState, withRaw } from "./helpers.ts";

const MAPPED_ARN = "arn:aws:kafka:us-east-1:111111111111:cluster/local/abc-1";
let kafka: Kfake;
let emu: TestEmulator;
let pubsub: PubSub;

beforeAll(async () => {
  kafka = await startKfake({ topics: ["orders:3", "plain:1", "msk-topic:1"] });
  emu = await startTestEmulator({ mskBootstrap: [`${MAPPED_ARN}=${kafka.addr}`] });
  pubsub = emu.client();
}, 900_000);
afterAll(async () => {
  await emu?.close();
  await kafka?.stop();
});

const states = (topic: string, field: "confluentCloud" | "awsMsk") => ingestionStates(pubsub, topic, field);
const waitState = (topic: string, field: "confluentCloud" | "awsMsk", source: string) => waitSourceState(pubsub, topic, field, source);

test("records become messages: value → data, key → ordering key, headers → attributes; in order per key, from the earliest offset", async () => {
  const keys = ["k0", "k1", "k2"];
  const before = Array.from({ length: 30 }, (_, i) => ({ key: keys[i % 3], value: `v${i}`, headers: { seq: String(i), src: "kafka" } }));
  await produce(kafka.addr, "orders", before);

  const imported = await orderedImport(pubsub, confluent(kafka.addr, "orders"));
  const { topic, got } = imported;
  const after = Array.from({ length: 30 }, (_, i) => ({ key: keys[i % 3], value: `v${30 + i}`, headers: { seq: String(30 + i), src: "kafka" } }));
  await receiveAround(imported, 30, () => produce(kafka.addr, "orders", after), 60);
  for (const k of keys) {
    const mine = got.filter((m) => m.orderingKey === k).map((m) => Number(m.attributes.seq));
    expect(mine).toEqual([...before, ...after].map((r, i) => (r.key === k ? i : -1)).filter((i) => i >= 0));
  }
  const first = got.find((m) => m.attributes.seq === "0")!;
  expect(first.data.toString()).toBe("v0");
  expect(first.orderingKey).toBe("k0");
  expect({ ...first.attributes }).toEqual({ seq: "0", src: "kafka" });
  expect(await states(topic, "confluentCloud")).toEqual({ topic: "ACTIVE", source: "ACTIVE" });
  expect(emu.streams.status(topic)).toMatchObject({ state: "ACTIVE", messages: 60, failed: 0 });
  const metrics = await (await fetch(`http://${emu.endpoint}/metrics`)).text();
  expect(metrics).toContain(`pubsub_emulator_import_messages_total{project="test-project",topic="${topic.split("/")[3]}",state="ACTIVE"} 60`);
}, 60_000);

test("a record without a key has no ordering key; one with neither value nor headers is skipped, counted, and logged at platform_logs_settings' severity", async () => {
  await produce(kafka.addr, "plain", [{ value: "no-key" }, { value: "" }, { value: "", headers: { only: "header" } }]);
  // A server process, to read its log.
  const server = await spawnServer(["--log-level", "info"]);
  const client = new PubSub({ projectId: "test-project", apiEndpoint: server.endpoint, emulatorMode: true });
  const raw = rawClients(server);
  try {
    const { topic, sub } = await importTopic(client, { ...confluent(kafka.addr, "plain"), platformLogsSettings: { severity: "WARNING" } });
    const got = await pullN(raw, sub.name, 2, 10_000);
    expect(got.map((m) => [m.data, m.attributes])).toEqual([
      ["no-key", {}],
      ["", { only: "header" }],
    ]);
    await server.printed(`WARN import topic ${topic.name}: 1 record(s) not ingested: a record with no value and no headers makes an empty message`);
    const [summary] = await Promise.all([fetch(`http://${server.endpoint}/emulator/v1/projects/test-project/topics/${topic.name.split("/")[3]}`).then((r) => r.json())]);
    expect(summary.ingestion).toMatchObject({ state: "ACTIVE", messages: 2, failed: 1 });
  } finally {
    await raw.close();
    await client.close();
    await server.stop();
  }
}, 30_000);

test("a Kafka topic that does not exist is TOPIC_NOT_FOUND until it is created, then ingested without a change", async () => {
  const name = unique("later");
  await withRaw(emu, async (raw) => {
    const { topic, sub } = await importTopic(pubsub, confluent(kafka.addr, name));
    await waitState(topic.name, "confluentCloud", "TOPIC_NOT_FOUND");
    expect((await states(topic.name, "confluentCloud")).topic).toBe("INGESTION_RESOURCE_ERROR");
    await createKafkaTopic(kafka.addr, name);
    await produce(kafka.addr, name, [{ value: "arrived" }]);
    expect((await pullN(raw, sub.name, 1, 15_000)).map((m) => m.data)).toEqual(["arrived"]);
    expect(await states(topic.name, "confluentCloud")).toEqual({ topic: "ACTIVE", source: "ACTIVE" });
  });
}, 30_000);

test("an unreachable bootstrap server is UNREACHABLE_BOOTSTRAP_SERVER", async () => {
  const { topic } = await importTopic(pubsub, confluent("127.0.0.1:1", "orders"));
  await waitState(topic.name, "confluentCloud", "UNREACHABLE_BOOTSTRAP_SERVER");
  expect((await states(topic.name, "confluentCloud")).topic).toBe("INGESTION_RESOURCE_ERROR");
}, 20_000);

test("Amazon MSK: a mapped cluster ARN reads its broker; an unmapped one is CLUSTER_NOT_FOUND", async () => {
  await produce(kafka.addr, "msk-topic", [{ key: "a", value: "from-msk" }]);
  await withRaw(emu, async (raw) => {
    const { topic, sub } = await importTopic(pubsub, msk(MAPPED_ARN, "msk-topic"));
    expect((await pullN(raw, sub.name, 1, 15_000)).map((m) => m.data)).toEqual(["from-msk"]);
    expect(await states(topic.name, "awsMsk")).toEqual({ topic: "ACTIVE", source: "ACTIVE" });
    const { topic: other } = await importTopic(pubsub, msk("arn:aws:kafka:us-east-1:111111111111:cluster/elsewhere/x-2", "msk-topic"));
    await Bun.sleep(200);
    expect(await states(other.name, "awsMsk")).toEqual({ topic: "INGESTION_RESOURCE_ERROR", source: "CLUSTER_NOT_FOUND" });
  });
}, 30_000);

for (const mechanism of ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] as const) {
  test(`a broker that asks for SASL ${mechanism}: with --kafka-sasl it is ACTIVE; without credentials or with a wrong password CONFLUENT_CLOUD_PERMISSION_DENIED`, async () => {
    const secured = await startKfake({ topics: ["secret:1"], sasl: `${mechanism}:alice:s3cret` });
    const withLogin = await startTestEmulator({ kafkaSasl: `${mechanism}:alice:s3cret` });
    const wrong = await startTestEmulator({ kafkaSasl: `${mechanism}:alice:wrong` });
    const raw = rawClients(withLogin);
    try {
      await produceSasl(secured.addr, mechanism);
      const { sub } = await importTopic(withLogin.client(), confluent(secured.addr, "secret"));
      expect((await pullN(raw, sub.name, 1, 15_000)).map((m) => m.data)).toEqual(["hidden"]);
      const { topic } = await importTopic(pubsub, confluent(secured.addr, "secret"));
      await waitState(topic.name, "confluentCloud", "CONFLUENT_CLOUD_PERMISSION_DENIED");
      const { topic: refused } = await importTopic(wrong.client(), confluent(secured.addr, "secret"));
      await waitFor(() => wrong.streams.status(refused.name)?.state === "CONFLUENT_CLOUD_PERMISSION_DENIED", 10_000, "a refused login");
    } finally {
      await raw.close();
      await wrong.close();
      await withLogin.close();
      await secured.stop();
    }
  }, 30_000);
}

async function produceSasl(addr: string, mechanism: "PLAIN" | "SCRAM-SHA-256" | "SCRAM-SHA-512"): Promise<void> {
  const { Producer } = await import("@platformatic/kafka");
  const p = new Producer({ clientId: "t", bootstrapBrokers: [addr], sasl: { mechanism, username: "alice", password: "s3cret" }, timeout: 10_000 });
  try {
    await p.send({ messages: [{ topic: "secret", value: Buffer.from("hidden") }] });
  } finally {
    await p.close().catch(() => {});
  }
}

/** Cloud Storage Avro objects with use_topic_schema: the topic's Avro schema (plus metadata fields), or SCHEMA_MISMATCH. */
import { beforeAll, expect, test } from "bun:test";
import { SchemaTypes } from "@google-cloud/pubsub";
import { PROJECT, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { readAvro, storageEmulator } from "./storage-helpers.ts";

const env = storageEmulator();
const gcs = env.gcs;
let emu: TestEmulator;
beforeAll(() => {
  emu = env.emu;
});

const AVRO = JSON.stringify({ type: "record", name: "Order", fields: [{ name: "sku", type: "string" }, { name: "qty", type: "int" }] });

async function schemaTopic(type: string, definition: string, encoding: "JSON" | "BINARY" = "JSON") {
  const pubsub = emu.client();
  const schema = await pubsub.createSchema(unique("sch"), type as never, definition);
  const [topic] = await pubsub.createTopic({ name: `projects/${PROJECT}/topics/${unique("t")}`, schemaSettings: { schema: await schema.getName(), encoding } });
  return topic;
}

test("records are written with the topic's Avro schema, the metadata fields appended", async () => {
  const bucket = unique("b").toLowerCase();
  gcs.createBucket(bucket);
  const topic = await schemaTopic(SchemaTypes.Avro, AVRO);
  const [sub] = await topic.createSubscription(unique("s"), { cloudStorageConfig: { bucket, avroConfig: { useTopicSchema: true, writeMetadata: true } } });
  const id = await topic.publishMessage({ data: Buffer.from(JSON.stringify({ sku: "A-1", qty: 3 })) });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 1, 5000, "batched");
  await emu.advance("300s");
  const [name] = await gcs.waitObjects(bucket, 1);
  const { schema, records } = await readAvro(gcs.read(bucket, name));
  expect((schema as { fields: { name: string }[] }).fields.map((f) => f.name)).toEqual(["sku", "qty", "subscription_name", "message_id", "publish_time", "attributes"]);
  expect(records[0]).toMatchObject({ sku: "A-1", qty: 3, subscription_name: sub.name, message_id: id });
});

test("a Protocol Buffer topic schema cannot be an Avro object: SCHEMA_MISMATCH, nothing written", async () => {
  const bucket = unique("b").toLowerCase();
  gcs.createBucket(bucket);
  const topic = await schemaTopic(SchemaTypes.ProtocolBuffer, 'syntax = "proto3"; message M { string s = 1; }');
  const [sub] = await topic.createSubscription(unique("s"), { cloudStorageConfig: { bucket, avroConfig: { useTopicSchema: true } } });
  await topic.publishMessage({ data: Buffer.from(JSON.stringify({ s: "x" })) });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 1, 5000, "batched");
  await emu.advance("300s");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.state === "SCHEMA_MISMATCH", 5000, "SCHEMA_MISMATCH");
  expect(gcs.objects(bucket)).toEqual([]);
});

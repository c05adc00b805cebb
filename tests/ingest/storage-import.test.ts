/** Cloud Storage import topics on a `--storage-dir`: text, delimiters, globs, create times, Avro, Pub/Sub Avro, states, once. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import avro from "avsc";
import { PROJECT, startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { pullUntil, type RawClients } from "../helpers/raw-clients.ts";
import { StorageDir } from "../kinds/storage-helpers.ts";
import { avroContainer } from "../../src/sinks/storage/encode.ts";
import { importTopic, pullN, pullNothing, putObject, rawClients } from "./helpers.ts";

let emu: TestEmulator;
let raw: RawClients;
const gcs = new StorageDir();
beforeAll(async () => {
  emu = await startTestEmulator({ clock: "manual", storageDir: gcs.dir });
  raw = rawClients(emu);
});
afterAll(async () => {
  await raw?.close();
  await emu?.close();
  gcs.remove();
});

const newBucket = () => {
  const b = unique("b").toLowerCase();
  gcs.createBucket(b);
  return b;
};

async function topicState(name: string): Promise<{ topic: string; source: string }> {
  const [t] = await emu.client().topic(name).getMetadata();
  return { topic: String(t.state), source: String(t.ingestionDataSourceSettings?.cloudStorage?.state) };
}

test("text objects: each line a message, blank lines none; an object is ingested once; a new object is picked up", async () => {
  const bucket = newBucket();
  putObject(gcs.dir, bucket, "a.txt", "l1\nl2\n\nl3\n");
  const { topic, sub } = await importTopic(emu.client(), { cloudStorage: { bucket, textFormat: {} } });
  const got = await pullN(raw, sub.name, 3);
  expect(got.map((m) => m.data).sort()).toEqual(["l1", "l2", "l3"]);
  expect(await topicState(topic.name)).toEqual({ topic: "ACTIVE", source: "ACTIVE" });
  await emu.advance("30s"); // rescans find nothing new
  expect(await pullNothing(raw, sub.name)).toBe(0);
  putObject(gcs.dir, bucket, "b.txt", "l4");
  await emu.advance("10s");
  expect((await pullN(raw, sub.name, 1)).map((m) => m.data)).toEqual(["l4"]);
  expect(emu.imports.status(topic.name)).toMatchObject({ state: "ACTIVE", objects: 2, messages: 4 });
});

test("a one-character delimiter, match_glob and minimum_object_create_time choose what is ingested", async () => {
  const bucket = newBucket();
  gcs.createBucket(`${bucket}/logs`);
  putObject(gcs.dir, bucket, "logs/x.csv", "a,b,c");
  putObject(gcs.dir, bucket, "logs/x.txt", "no");
  putObject(gcs.dir, bucket, "top.csv", "no");
  const { sub } = await importTopic(emu.client(), { cloudStorage: { bucket, textFormat: { delimiter: "," }, matchGlob: "logs/*.csv" } });
  expect((await pullN(raw, sub.name, 3)).map((m) => m.data).sort()).toEqual(["a", "b", "c"]);
  expect(await pullNothing(raw, sub.name)).toBe(0);

  const later = newBucket();
  putObject(gcs.dir, later, "old.txt", "old");
  const future = { seconds: Math.floor(Date.now() / 1000) + 3600 };
  const { sub: s2 } = await importTopic(emu.client(), { cloudStorage: { bucket: later, minimumObjectCreateTime: future } });
  await emu.advance("10s");
  expect(await pullNothing(raw, s2.name)).toBe(0);
});

test("Avro objects: each record a message in Avro binary; Pub/Sub Avro restores data and attributes", async () => {
  const bucket = newBucket();
  const schema = { type: "record", name: "R", fields: [{ name: "n", type: "int" }] };
  putObject(gcs.dir, bucket, "r.avro", await avroContainer(schema, [{ n: 1 }, { n: 2 }]));
  const { sub } = await importTopic(emu.client(), { cloudStorage: { bucket, avroFormat: {} } });
  const [res] = await Promise.all([pullRaw(sub.name, 2)]);
  const type = avro.Type.forSchema(schema as avro.Schema);
  expect(res.map((d) => (type.fromBuffer(d) as { n: number }).n).sort()).toEqual([1, 2]);

  // A Cloud Storage subscription's Avro objects, read back by a Pub/Sub Avro import topic.
  const out = newBucket();
  const pubsub = emu.client();
  const [src] = await pubsub.createTopic(unique("t"));
  const [exportSub] = await src.createSubscription(unique("s"), { cloudStorageConfig: { bucket: out, avroConfig: { writeMetadata: true } } });
  await src.publishMessage({ data: Buffer.from("round"), attributes: { k: "v" } });
  await waitFor(() => emu.broker.subscriptions.exportStatus(exportSub.name)?.openBatch?.messages === 1, 5000, "batched");
  await emu.advance("300s");
  await gcs.waitObjects(out, 1);
  const { sub: back } = await importTopic(pubsub, { cloudStorage: { bucket: out, pubsubAvroFormat: {} } });
  const [m] = await pullN(raw, back.name, 1);
  expect(m).toEqual({ data: "round", attributes: { k: "v" } });
});

async function pullRaw(subscription: string, n: number): Promise<Buffer[]> {
  return (await pullUntil(raw.subscriber, subscription, n)).map((r) => Buffer.from(r.message!.data as Uint8Array));
}

test("a missing bucket is BUCKET_NOT_FOUND (the topic INGESTION_RESOURCE_ERROR) until it exists", async () => {
  const bucket = unique("b").toLowerCase();
  const { topic, sub } = await importTopic(emu.client(), { cloudStorage: { bucket } });
  await waitFor(() => emu.imports.status(topic.name)?.state === "BUCKET_NOT_FOUND", 5000, "BUCKET_NOT_FOUND");
  expect(await topicState(topic.name)).toEqual({ topic: "INGESTION_RESOURCE_ERROR", source: "BUCKET_NOT_FOUND" });
  gcs.createBucket(bucket);
  putObject(gcs.dir, bucket, "late.txt", "late");
  await emu.advance("10s");
  expect((await pullN(raw, sub.name, 1)).map((m) => m.data)).toEqual(["late"]);
  expect(await topicState(topic.name)).toEqual({ topic: "ACTIVE", source: "ACTIVE" });
});

test("sources the emulator cannot reach are stored and say so", async () => {
  const [t] = await emu.client().createTopic({
    name: `projects/${PROJECT}/topics/${unique("t")}`,
    ingestionDataSourceSettings: {
      awsKinesis: { streamArn: "arn:aws:kinesis:us-east-1:1:stream/s", consumerArn: "arn:c", awsRoleArn: "arn:aws:iam::1:role/r", gcpServiceAccount: "sa@p.iam.gserviceaccount.com" },
    },
  });
  const [meta] = await t.getMetadata();
  expect(meta.state).toBe("INGESTION_RESOURCE_ERROR");
  expect(meta.ingestionDataSourceSettings?.awsKinesis?.state).toBe("STREAM_NOT_FOUND");
  expect(meta.ingestionDataSourceSettings?.awsKinesis?.streamArn).toBe("arn:aws:kinesis:us-east-1:1:stream/s");
});

test("an object renamed into the bucket folder is ingested at once: the directory watch, no clock needed", async () => {
  const bucket = newBucket();
  const { sub } = await importTopic(emu.client(), { cloudStorage: { bucket } });
  await Bun.sleep(50);
  putObject(gcs.dir, bucket, "now.txt", "watched");
  expect((await pullN(raw, sub.name, 1)).map((m) => m.data)).toEqual(["watched"]);
});

test("inspection and metrics show an import topic's state and what it ingested", async () => {
  const bucket = newBucket();
  putObject(gcs.dir, bucket, "x.txt", "1\n2");
  putObject(gcs.dir, bucket, "bad.avro", "not avro");
  const { topic, sub } = await importTopic(emu.client(), { cloudStorage: { bucket, matchGlob: "*.txt" } });
  await pullN(raw, sub.name, 2);
  const id = topic.name.split("/").pop();
  const summary = await emu.admin("GET", `/emulator/v1/projects/${PROJECT}/topics/${id}`);
  expect(summary.ingestion).toEqual({ state: "ACTIVE", objects: 1, messages: 2, failed: 0 });
  const metrics = await (await fetch(`http://${emu.endpoint}/metrics`)).text();
  expect(metrics).toContain(`pubsub_emulator_import_messages_total{project="${PROJECT}",topic="${id}",state="ACTIVE"} 2`);
  expect(metrics).toContain(`pubsub_emulator_import_objects_total{project="${PROJECT}",topic="${id}",state="ACTIVE"} 1`);

  // An object that is not Avro, in an Avro import: skipped and counted, nothing published.
  const { topic: avroTopic, sub: avroSub } = await importTopic(emu.client(), { cloudStorage: { bucket, avroFormat: {}, matchGlob: "*.avro" } });
  await waitFor(() => emu.imports.status(avroTopic.name)?.failed === 1, 5000, "the bad object counted");
  expect(await pullNothing(raw, avroSub.name)).toBe(0);
});

test("Pub/Sub Avro attributes named constructor are plain attributes; __proto__ (which avsc's map reader drops) pollutes nothing", async () => {
  const bucket = newBucket();
  const schema = { type: "record", name: "M", fields: [{ name: "data", type: "bytes" }, { name: "attributes", type: { type: "map", values: "string" } }] };
  const attributes = JSON.parse('{"__proto__":"p","constructor":"c","k":"v"}');
  putObject(gcs.dir, bucket, "m.avro", await avroContainer(schema, [{ data: Buffer.from("d"), attributes }]));
  const { sub } = await importTopic(emu.client(), { cloudStorage: { bucket, pubsubAvroFormat: {} } });
  const [m] = await pullN(raw, sub.name, 1);
  expect(m.data).toBe("d");
  expect(Object.entries(m.attributes).sort()).toEqual([["constructor", "c"], ["k", "v"]]);
  expect(({} as Record<string, unknown>).p).toBeUndefined();
});

/** Cloud Storage subscriptions writing to a `--storage-dir`: batch boundaries on the manual clock, names, text and Avro. */
import { beforeAll, expect, test } from "bun:test";
import { PROJECT, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { readAvro, storageEmulator, storageState } from "./storage-helpers.ts";
import { topicAndSub } from "../helpers/client-suite.ts";

const env = storageEmulator();
const gcs = env.gcs;
let emu: TestEmulator;
beforeAll(() => {
  emu = env.emu;
});

const bucketName = () => unique("b").toLowerCase();
const DEFAULT_NAME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00_[0-9a-f-]{36}$/;

async function setup(config: Record<string, unknown>, opts: { bucket?: boolean } = {}) {
  const bucket = bucketName();
  if (opts.bucket !== false) gcs.createBucket(bucket);
  const pubsub = emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { cloudStorageConfig: { bucket, ...config } });
  return { bucket, topic, sub };
}

test("defaults reported back; a text object holds the data, newline-separated, once max_duration passes", async () => {
  const { bucket, topic, sub } = await setup({});
  const [meta] = await sub.getMetadata();
  const c = meta.cloudStorageConfig!;
  expect(c.state).toBe("ACTIVE");
  expect(Number(c.maxDuration!.seconds)).toBe(300);
  expect(c.textConfig).toEqual({});
  for (const s of ["one", "two", "three"]) await topic.publishMessage({ data: Buffer.from(s), attributes: { k: "v" } });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 3, 5000, "three messages batched");
  expect(gcs.objects(bucket)).toEqual([]);
  await emu.advance("299s");
  await Bun.sleep(30);
  expect(gcs.objects(bucket)).toEqual([]);
  await emu.advance("1s");
  const [name] = await gcs.waitObjects(bucket, 1);
  expect(name).toMatch(DEFAULT_NAME);
  expect(gcs.read(bucket, name).toString()).toBe("one\ntwo\nthree");
  // Acked once written: nothing left to deliver, and the figures count the object.
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.objects === 1, 5000, "the object counted");
  expect(emu.broker.subscriptions.exportStatus(sub.name)).toMatchObject({ kind: "cloud_storage", state: "ACTIVE", rows: 3, objects: 1, bytes: 13, openBatch: null });
  const metrics = await (await fetch(`http://${emu.endpoint}/metrics`)).text();
  expect(metrics).toContain(`kind="cloud_storage",state="ACTIVE"} 3`);
});

test("max_messages closes an object at exactly that many messages; the rest wait for the next", async () => {
  const { bucket, topic } = await setup({ maxMessages: 1000, filenamePrefix: "logs/", filenameSuffix: ".txt" });
  const ids = await Promise.all(Array.from({ length: 1005 }, (_, i) => topic.publishMessage({ data: Buffer.from(`m${i}`) })));
  expect(ids.length).toBe(1005);
  const [first] = await gcs.waitObjects(bucket, 1);
  expect(first).toMatch(/^logs\/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00_[0-9a-f-]{36}\.txt$/);
  expect(gcs.read(bucket, first).toString().split("\n").length).toBe(1000);
  await Bun.sleep(30);
  expect(gcs.objects(bucket).length).toBe(1);
  await emu.advance("300s");
  const both = await gcs.waitObjects(bucket, 2);
  const lines = both.flatMap((n) => gcs.read(bucket, n).toString().split("\n"));
  expect(new Set(lines)).toEqual(new Set(Array.from({ length: 1005 }, (_, i) => `m${i}`)));
});

test("max_bytes closes an object before a message would take it past the limit", async () => {
  const { bucket, topic } = await setup({ maxBytes: 1000 });
  const big = (c: string) => Buffer.alloc(300, c);
  for (const c of "abcd") await topic.publishMessage({ data: big(c) });
  const [name] = await gcs.waitObjects(bucket, 1);
  expect(gcs.read(bucket, name).toString()).toBe(["a", "b", "c"].map((c) => c.repeat(300)).join("\n"));
  await emu.advance("300s");
  const names = await gcs.waitObjects(bucket, 2);
  expect(names.map((n) => gcs.read(bucket, n).length).sort((a, b) => a - b)).toEqual([300, 902]);
});

test("filename_datetime_format and a trailing delimiter replace the separator", async () => {
  const { bucket, topic } = await setup({ filenamePrefix: "prod_", filenameSuffix: "_archive", filenameDatetimeFormat: "YYYY-MM-DD/hh_mm_ss-" });
  const sub = (await topic.getSubscriptions())[0][0];
  await topic.publishMessage({ data: Buffer.from("x") });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 1, 5000, "batched");
  await emu.advance("300s");
  const [name] = await gcs.waitObjects(bucket, 1);
  expect(name).toMatch(/^prod_\d{4}-\d\d-\d\d\/\d\d_\d\d_\d\d-[0-9a-f-]{36}_archive$/);
});

test("Avro with write_metadata: the real service's schema, read back by avsc", async () => {
  const { bucket, topic, sub } = await setup({ avroConfig: { writeMetadata: true }, maxMessages: 1000 });
  const publishedAt = emu.broker.clock.now(); // the manual clock stands still until advanced
  const id = await topic.publishMessage({ data: Buffer.from([0, 1, 255]), attributes: { a: "1" } });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 1, 5000, "batched");
  await emu.advance("300s");
  const [name] = await gcs.waitObjects(bucket, 1);
  const { schema, records } = await readAvro(gcs.read(bucket, name));
  expect((schema as { name: string }).name).toBe("PubsubMessageWithMetadata");
  expect((schema as { namespace: string }).namespace).toBe("com.google.pubsub");
  expect(records.length).toBe(1);
  const r = records[0];
  expect(r.subscription_name).toBe(sub.name);
  expect(r.message_id).toBe(id);
  expect(r.publish_time).toBe(publishedAt * 1000); // timestamp-micros
  expect(r.attributes).toEqual({ a: "1" });
  expect([...(r.data as Buffer)]).toEqual([0, 1, 255]);
});

test("Avro without metadata writes PubsubMessage {data}; the ordering key goes in attributes with metadata", async () => {
  const plain = await setup({ avroConfig: {} });
  await plain.topic.publishMessage({ data: Buffer.from("p") });
  const ordered = await setup({ avroConfig: { writeMetadata: true } });
  const t = emu.client().topic(ordered.topic.name, { messageOrdering: true });
  await t.publishMessage({ data: Buffer.from("o"), orderingKey: "key-1" });
  await Bun.sleep(50);
  await emu.advance("300s");
  const [p] = await gcs.waitObjects(plain.bucket, 1);
  const a = await readAvro(gcs.read(plain.bucket, p));
  expect((a.schema as { fields: unknown[] }).fields).toEqual([{ name: "data", type: "bytes" }]);
  expect(a.records.map((r) => String(r.data))).toEqual(["p"]);
  const [o] = await gcs.waitObjects(ordered.bucket, 1);
  const b = await readAvro(gcs.read(ordered.bucket, o));
  expect(b.records[0].attributes).toEqual({ ordering_key: "key-1" });
});

test("a missing bucket is NOT_FOUND; once its folder exists delivery resumes and nothing published meanwhile is lost", async () => {
  const { bucket, topic, sub } = await setup({}, { bucket: false });
  expect(await storageState(sub)).toBe("NOT_FOUND");
  for (let i = 0; i < 5; i++) await topic.publishMessage({ data: Buffer.from(`w${i}`) });
  await Bun.sleep(50);
  gcs.createBucket(bucket);
  await emu.advance("61s");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 5, 5000, "the waiting messages batched");
  expect(await storageState(sub)).toBe("ACTIVE");
  await emu.advance("300s");
  const [name] = await gcs.waitObjects(bucket, 1);
  expect(gcs.read(bucket, name).toString().split("\n").sort()).toEqual(["w0", "w1", "w2", "w3", "w4"]);
});

test("Pull on a Cloud Storage subscription is refused", async () => {
  const { sub } = await setup({});
  expect(sub.name.startsWith(`projects/${PROJECT}/`)).toBe(true);
  const [client] = [new (await import("@google-cloud/pubsub")).v1.SubscriberClient({ apiEndpoint: emu.endpoint.split(":")[0], port: Number(emu.endpoint.split(":")[1]), sslCreds: (await import("@grpc/grpc-js")).credentials.createInsecure() })];
  await expect(client.pull({ subscription: sub.name, maxMessages: 1 })).rejects.toThrow("Cloud Storage subscriptions");
  await client.close();
});

test("a failed write is a redelivery: the bucket removed mid-batch, its messages land once it is back", async () => {
  const { bucket, topic, sub } = await setup({});
  for (const s of ["a", "b"]) await topic.publishMessage({ data: Buffer.from(s) });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 2, 5000, "batched");
  gcs.removeBucket(bucket);
  await emu.advance("300s");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.state === "NOT_FOUND", 5000, "NOT_FOUND after the failed write");
  gcs.createBucket(bucket);
  await emu.advance("61s");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 2, 5000, "redelivered into a new batch");
  await emu.advance("300s");
  const [name] = await gcs.waitObjects(bucket, 1);
  expect(gcs.read(bucket, name).toString().split("\n").sort()).toEqual(["a", "b"]);
});

test("inspection lists the open batch; metrics count objects and bytes", async () => {
  const { bucket, topic, sub } = await setup({ maxMessages: 1000 });
  await topic.publishMessage({ data: Buffer.from("12345") });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 1, 5000, "batched");
  const id = sub.name.split("/").pop();
  const summary = await emu.admin("GET", `/emulator/v1/projects/${PROJECT}/subscriptions/${id}`);
  const now = emu.broker.clock.now();
  expect(summary.export).toEqual({ kind: "cloud_storage", state: "ACTIVE", rows: 0, objects: 0, bytes: 0, openBatch: { messages: 1, bytes: 6, startedAt: now, closesAt: now + 300_000 } });
  await emu.advance("300s");
  await gcs.waitObjects(bucket, 1);
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.objects === 1, 5000, "counted");
  const metrics = await (await fetch(`http://${emu.endpoint}/metrics`)).text();
  const labels = `project="${PROJECT}",subscription="${id}",topic="${topic.name.split("/").pop()}",state="ACTIVE"`;
  expect(metrics).toContain(`pubsub_emulator_export_objects_written_total{${labels}} 1`);
  expect(metrics).toContain(`pubsub_emulator_export_bytes_written_total{${labels}} 5`);
});

test("hostile prefixes stay inside the bucket folder: '..' segments are encoded, not followed", async () => {
  const { bucket, topic, sub } = await setup({ filenamePrefix: "../../escape/./x/" });
  await topic.publishMessage({ data: Buffer.from("inside") });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 1, 5000, "batched");
  await emu.advance("300s");
  const [name] = await gcs.waitObjects(bucket, 1);
  expect(name.startsWith("%2E%2E/%2E%2E/escape/%2E/x/")).toBe(true);
  expect(gcs.read(bucket, name).toString()).toBe("inside");
  expect(gcs.objects("escape")).toEqual([]);
});

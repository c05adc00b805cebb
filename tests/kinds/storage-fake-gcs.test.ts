/** Cloud Storage subscriptions and import topics through STORAGE_EMULATOR_HOST against a real Cloud Storage emulator, fake-gcs-server. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { importTopic, pullN, pullNothing, rawClients } from "../ingest/helpers.ts";
import { startFakeGcs, type FakeGcs } from "./fake-gcs.ts";
import { readAvro, storageState } from "./storage-helpers.ts";
import { topicAndSub } from "../helpers/client-suite.ts";

let emu: TestEmulator;
let gcs: FakeGcs;
beforeAll(async () => {
  gcs = await startFakeGcs();
  emu = await startTestEmulator({ clock: "manual", storageEmulatorHost: gcs.url });
});
afterAll(async () => {
  await emu?.close();
  await gcs?.stop();
});

const bucketName = () => unique("b").toLowerCase();

test("a bucket created late: NOT_FOUND, then ACTIVE, and nothing published meanwhile is lost", async () => {
  const bucket = bucketName();
  const pubsub = emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { cloudStorageConfig: { bucket, filenamePrefix: "in/" } });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.state === "NOT_FOUND", 5000, "NOT_FOUND");
  expect(await storageState(sub)).toBe("NOT_FOUND");
  for (let i = 0; i < 3; i++) await topic.publishMessage({ data: Buffer.from(`late${i}`) });
  await Bun.sleep(50);
  await gcs.createBucket(bucket);
  await emu.advance("61s");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 3, 5000, "the waiting messages batched");
  expect(await storageState(sub)).toBe("ACTIVE");
  await emu.advance("300s");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.objects === 1, 5000, "one object written");
  const [name] = await gcs.list(bucket);
  expect(name).toMatch(/^in\/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00_[0-9a-f-]{36}$/);
  expect((await gcs.download(bucket, name)).toString().split("\n").sort()).toEqual(["late0", "late1", "late2"]);
});

test("an Avro object uploaded to fake-gcs-server reads back with avsc", async () => {
  const bucket = bucketName();
  await gcs.createBucket(bucket);
  const pubsub = emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { cloudStorageConfig: { bucket, avroConfig: { writeMetadata: true }, filenameSuffix: ".avro" } });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.state === "ACTIVE", 5000, "ACTIVE");
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push(await topic.publishMessage({ data: Buffer.from(`a${i}`), attributes: { n: String(i) } }));
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 4, 5000, "batched");
  await emu.advance("300s");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.objects === 1, 5000, "one object written");
  const [name] = await gcs.list(bucket);
  expect(name.endsWith(".avro")).toBe(true);
  const { records } = await readAvro(await gcs.download(bucket, name));
  expect(records.map((r) => r.message_id)).toEqual(ids);
  expect(records.map((r) => String(r.data))).toEqual(["a0", "a1", "a2", "a3"]);
  expect(records.map((r) => (r.attributes as Record<string, string>).n)).toEqual(["0", "1", "2", "3"]);
});

test("an import topic reads fake-gcs-server's objects once, and finds a new one on its next listing", async () => {
  const bucket = bucketName();
  await gcs.createBucket(bucket);
  await gcs.upload(bucket, "dir/one.txt", "f1\nf2\n");
  const raw = rawClients(emu);
  try {
    const { topic, sub } = await importTopic(emu.client(), { cloudStorage: { bucket, matchGlob: "dir/**" } });
    expect((await pullN(raw, sub.name, 2)).map((m) => m.data).sort()).toEqual(["f1", "f2"]);
    await gcs.upload(bucket, "dir/two.txt", "f3");
    await gcs.upload(bucket, "other.txt", "not matched");
    await emu.advance("10s");
    expect((await pullN(raw, sub.name, 1)).map((m) => m.data)).toEqual(["f3"]);
    await emu.advance("10s");
    expect(await pullNothing(raw, sub.name)).toBe(0);
    expect(emu.imports.status(topic.name)).toMatchObject({ state: "ACTIVE", objects: 2, messages: 3 });
  } finally {
    await raw.close();
  }
});

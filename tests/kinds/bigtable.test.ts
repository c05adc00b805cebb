/**
 * Bigtable subscriptions against Google's Bigtable emulator: rows read back with the official
 * Bigtable client, the NOT_FOUND and SCHEMA_MISMATCH states and the resume once the table is fixed.
 */
import { Bigtable, type Instance } from "@google-cloud/bigtable";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { stateOf } from "./helpers.ts";
import { startBigtableEmulator, type BigtableEmulator } from "./bigtable-emulator.ts";

let emu: TestEmulator;
let cbt: BigtableEmulator;
let instance: Instance;
let bigtable: Bigtable;
const BT_PROJECT = "bt-project";
const INSTANCE = "test-instance";

beforeAll(async () => {
  cbt = await startBigtableEmulator();
  process.env.BIGTABLE_EMULATOR_HOST = cbt.host;
  // Client-side metrics off: they export to Cloud Monitoring in the background and fail (no credentials) in a later test.
  bigtable = new Bigtable({ projectId: BT_PROJECT, metricsEnabled: false });
  instance = bigtable.instance(INSTANCE);
  emu = await startTestEmulator({ clock: "manual", bigtableEmulatorHost: cbt.host });
});
afterAll(async () => {
  await bigtable?.close();
  await emu?.close();
  await cbt?.stop();
});

const tablePath = (id: string) => `projects/${BT_PROJECT}/instances/${INSTANCE}/tables/${id}`;

type Cell = { value: string; timestamp: string };
async function readRows(tableId: string): Promise<{ id: string; data: Record<string, Record<string, Cell[]>> }[]> {
  const [rows] = await instance.table(tableId).getRows();
  return rows.map((r) => ({ id: r.id, data: r.data }));
}

async function waitRows(tableId: string, n: number) {
  let rows: Awaited<ReturnType<typeof readRows>> = [];
  const until = Date.now() + 5000;
  while ((rows = await readRows(tableId)).length < n) {
    if (Date.now() > until) throw new Error(`${rows.length} of ${n} rows in ${tableId}`);
    await Bun.sleep(20);
  }
  return rows;
}

test("rows as the real service writes them: key sub#id, data family, empty qualifier, publish-time cells", async () => {
  const tableId = unique("t");
  await instance.createTable(tableId, { families: ["data"] });
  const pubsub = emu.client();
  const [topic] = await pubsub.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { bigtableConfig: { table: tablePath(tableId) } });
  const id = await topic.publishMessage({ data: Buffer.from("hello"), attributes: { k: "v" } });
  const [row] = await waitRows(tableId, 1);
  expect(row.id).toBe(`${sub.name}#${id}`);
  expect(Object.keys(row.data)).toEqual(["data"]);
  const [cell] = row.data.data[""];
  expect(cell.value).toBe("hello");
  expect(Number(cell.timestamp) % 1000).toBe(0);
  expect(await stateOf(sub, "bigtableConfig")).toBe("ACTIVE");
});

test("write_metadata adds the pubsub_metadata family's columns", async () => {
  const tableId = unique("t");
  await instance.createTable(tableId, { families: ["data", "pubsub_metadata"] });
  const pubsub = emu.client();
  const [topic] = await pubsub.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { bigtableConfig: { table: tablePath(tableId), writeMetadata: true } });
  const id = await topic.publishMessage({ data: Buffer.from("m"), attributes: { a: "1" } });
  const [row] = await waitRows(tableId, 1);
  const meta = row.data.pubsub_metadata;
  expect(meta.subscription_name[0].value).toBe(sub.name);
  expect(meta.message_id[0].value).toBe(id);
  expect(meta.publish_time[0].value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  expect(JSON.parse(meta.attributes[0].value)).toEqual({ a: "1" });
  expect(meta.message_id[0].timestamp).toBe(row.data.data[""][0].timestamp);
});

test("write_metadata puts a message's ordering key into the attributes JSON as ordering_key", async () => {
  const tableId = unique("t");
  await instance.createTable(tableId, { families: ["data", "pubsub_metadata"] });
  const pubsub = emu.client();
  const [topic] = await pubsub.createTopic(unique("t"));
  await topic.createSubscription(unique("s"), { bigtableConfig: { table: tablePath(tableId), writeMetadata: true } });
  await pubsub.topic(topic.name, { messageOrdering: true }).publishMessage({ data: Buffer.from("o"), attributes: { a: "1" }, orderingKey: "key-1" });
  const [row] = await waitRows(tableId, 1);
  expect(JSON.parse(row.data.pubsub_metadata.attributes[0].value)).toEqual({ a: "1", ordering_key: "key-1" });
});

test("a missing table is NOT_FOUND; delivery resumes by itself once the table exists", async () => {
  const tableId = unique("t");
  const pubsub = emu.client();
  const [topic] = await pubsub.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { bigtableConfig: { table: tablePath(tableId) } });
  await topic.publishMessage({ data: Buffer.from("later") });
  const until = Date.now() + 5000;
  while ((await stateOf(sub, "bigtableConfig")) !== "NOT_FOUND") {
    if (Date.now() > until) throw new Error("never NOT_FOUND");
    await Bun.sleep(20);
  }
  await instance.createTable(tableId, { families: ["data"] });
  await emu.advance("61s");
  const [row] = await waitRows(tableId, 1);
  expect(row.data.data[""][0].value).toBe("later");
  expect(await stateOf(sub, "bigtableConfig")).toBe("ACTIVE");
});

test("a table without the data family is SCHEMA_MISMATCH until the family is added", async () => {
  const tableId = unique("t");
  await instance.createTable(tableId, { families: ["other"] });
  const pubsub = emu.client();
  const [topic] = await pubsub.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { bigtableConfig: { table: tablePath(tableId) } });
  await topic.publishMessage({ data: Buffer.from("x") });
  const until = Date.now() + 5000;
  while ((await stateOf(sub, "bigtableConfig")) !== "SCHEMA_MISMATCH") {
    if (Date.now() > until) throw new Error("never SCHEMA_MISMATCH");
    await Bun.sleep(20);
  }
  await instance.table(tableId).createFamily("data");
  await emu.advance("61s");
  const [row] = await waitRows(tableId, 1);
  expect(row.data.data[""][0].value).toBe("x");
});

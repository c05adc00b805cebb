/**
 * Bigtable subscriptions against Google's Bigtable emulator: rows read back with the official
 * Bigtable client, the PERMISSION_DENIED (missing table) and SCHEMA_MISMATCH states and the resume once the table is fixed.
 */
import { Bigtable, type Instance } from "@google-cloud/bigtable";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROJECT, startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { stateOf, waitForState } from "./helpers.ts";
import { startBigtableEmulator, type BigtableEmulator } from "./bigtable-emulator.ts";
import { messageIdHash } from "../../src/sinks/bigtable/kind.ts";
import { topicAndSub } from "../helpers/client-suite.ts";

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
  await waitFor(async () => (rows = await readRows(tableId)).length >= n, 5000, () => `${n} rows in ${tableId} (${rows.length})`, 20);
  return rows;
}

test("rows as the real service writes them: key sub#hash#id, data family, empty qualifier, publish-time cells", async () => {
  const tableId = unique("t");
  await instance.createTable(tableId, { families: ["data"] });
  const pubsub = emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { bigtableConfig: { table: tablePath(tableId) } });
  const id = await topic.publishMessage({ data: Buffer.from("hello"), attributes: { k: "v" } });
  const [row] = await waitRows(tableId, 1);
  expect(row.id).toBe(`${sub.name}#${messageIdHash(id)}#${id}`);
  expect(row.id.split("#")[1]).toMatch(/^[0-9a-f]{8}$/);
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
  const { topic, sub } = await topicAndSub(pubsub, { bigtableConfig: { table: tablePath(tableId), writeMetadata: true } });
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

test("a missing table is PERMISSION_DENIED (NOT_FOUND is unused since googleapis 2026-08); delivery resumes by itself once the table exists", async () => {
  const tableId = unique("t");
  const pubsub = emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { bigtableConfig: { table: tablePath(tableId) } });
  await topic.publishMessage({ data: Buffer.from("later") });
  await waitForState(sub, "bigtableConfig", "PERMISSION_DENIED");
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
  const { topic, sub } = await topicAndSub(pubsub, { bigtableConfig: { table: tablePath(tableId) } });
  await topic.publishMessage({ data: Buffer.from("x") });
  await waitForState(sub, "bigtableConfig", "SCHEMA_MISMATCH");
  await instance.table(tableId).createFamily("data");
  await emu.advance("61s");
  const [row] = await waitRows(tableId, 1);
  expect(row.data.data[""][0].value).toBe("x");
});

describe("column_family_mapping (the clients of 2026-11; created over REST: the Node client's protos lack it)", () => {
  async function mappedSub(topic: string, mapping: unknown, tableId: string) {
    const id = unique("s");
    const res = await fetch(`http://${emu.endpoint}/v1/projects/${PROJECT}/subscriptions/${id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ topic, bigtableConfig: { table: tablePath(tableId), columnFamilyMapping: mapping } }),
    });
    return { res, json: await res.json(), sub: emu.client().subscription(id) };
  }

  test("delimited_key: the row key joins the key fields; fields go to `data` by name, a field named like a family into that family", async () => {
    const tableId = unique("t");
    await instance.createTable(tableId, { families: ["data", "address"] });
    const [topic] = await emu.client().createTopic(unique("t"));
    const delimiter = Buffer.from("#").toString("base64");
    const { res, json, sub } = await mappedSub(topic.name, { delimitedKey: { keyFields: ["region", "id"], delimiter } }, tableId);
    expect(res.status).toBe(200);
    expect(json.bigtableConfig.columnFamilyMapping).toEqual({ delimitedKey: { keyFields: ["region", "id"], delimiter } });
    await topic.publishMessage({ json: { region: "eu", id: 7, name: "Ada", address: { city: "Oslo", zip: "0150" }, tags: ["a"] } });
    // Missing a key field, or not JSON: it stays in the backlog while the others are written.
    await topic.publishMessage({ json: { id: 8, name: "no region" } });
    await topic.publishMessage({ data: Buffer.from("plain text") });
    await topic.publishMessage({ json: { region: "us", id: 9 } });
    // A batch with unwritable messages pauses the subscription (on the manual clock) before they come back.
    let rows = await readRows(tableId);
    const twoRows = async () => {
      if ((rows = await readRows(tableId)).length >= 2) return true;
      await emu.advance("61s");
      return false;
    };
    await waitFor(twoRows, 10_000, () => `2 rows (${rows.length})`, 50);
    expect(rows.map((r) => r.id).sort()).toEqual(["eu#7", "us#9"]);
    const eu = rows.find((r) => r.id === "eu#7")!;
    const cell = (family: string, q: string) => eu.data[family][q][0].value;
    expect([cell("data", "region"), cell("data", "id"), cell("data", "name"), cell("data", "tags")]).toEqual(["eu", "7", "Ada", '["a"]']);
    expect([cell("address", "city"), cell("address", "zip")]).toEqual(["Oslo", "0150"]);
    expect(Object.keys(eu.data).sort()).toEqual(["address", "data"]);
    expect(await stateOf(sub, "bigtableConfig")).toBe("ACTIVE");
    const info = await (await fetch(`http://${emu.endpoint}/emulator/v1/${sub.name}`)).json();
    expect(info.backlog + info.outstanding).toBe(2);
    expect(info.export.rows).toBe(2);
  }, 20_000);

  test("row_key_schema on a table without a structured row key is SCHEMA_MISMATCH", async () => {
    const tableId = unique("t");
    await instance.createTable(tableId, { families: ["data"] });
    const [topic] = await emu.client().createTopic(unique("t"));
    const { res, sub } = await mappedSub(topic.name, { rowKeySchema: {} }, tableId);
    expect(res.status).toBe(200);
    await topic.publishMessage({ json: { a: 1 } });
    await waitForState(sub, "bigtableConfig", "SCHEMA_MISMATCH");
  }, 20_000);

  test("the mapping's rules, each refusal naming its field", async () => {
    const [topic] = await emu.client().createTopic(unique("t"));
    const cases: [unknown, string][] = [
      [{ delimitedKey: {} }, "bigtable_config.column_family_mapping.delimited_key.key_fields is required"],
      [{ delimitedKey: { keyFields: ["a", "b"] } }, "bigtable_config.column_family_mapping.delimited_key.delimiter is required"],
      [{ delimitedKey: { keyFields: ["a"], delimiter: Buffer.alloc(51, 35).toString("base64") } }, "delimiter is 51 bytes"],
      [{ delimitedKey: { keyFields: ["a", ""], delimiter: "Iw==" } }, "key_fields[1] must not be empty"],
    ];
    for (const [mapping, words] of cases) {
      const { res, json } = await mappedSub(topic.name, mapping, "t1");
      expect(res.status).toBe(400);
      expect(json.error.message).toContain(words);
    }
  });
});

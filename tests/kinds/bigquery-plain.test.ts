/** BigQuery subscriptions without a schema: the `data` column, metadata columns, states, Pull refused. */
import { expect, test } from "bun:test";
import { PROJECT, unique, waitFor } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";
import { bigQueryFile, col, METADATA, stateOf, subscriptionState } from "./helpers.ts";
import { topicAndSub } from "../helpers/client-suite.ts";

const file = bigQueryFile();
const { bq, tableName } = file;

test("a STRING data column gets the message text; nothing else is written without write_metadata", async () => {
  const table = tableName();
  bq.declare(table, [col("data", "STRING"), col("other", "INTEGER")]);
  const pubsub = file.emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { bigqueryConfig: { table } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("ACTIVE");
  await topic.publishMessage({ data: Buffer.from("hello"), attributes: { k: "v" } });
  const rows = await bq.waitRows(table, 1);
  expect(rows).toEqual([{ data: "hello" }]);
  // The metrics count rows per subscription (once the write is acked), labelled with the kind and the state.
  await waitFor(() => file.emu.broker.subscriptions.exportStatus(sub.name)?.rows === 1, 5000, "the row counted");
  const metrics = await (await fetch(`http://${file.emu.endpoint}/metrics`)).text();
  const id = sub.name.split("/").pop();
  expect(metrics).toContain(`pubsub_emulator_export_rows_written_total{project="${PROJECT}",subscription="${id}",topic="${topic.name.split("/").pop()}",kind="bigquery",state="ACTIVE"} 1`);
  expect(file.emu.broker.subscriptions.exportStatus(sub.name)).toEqual({ kind: "bigquery", state: "ACTIVE", rows: 1 });
});

test("write_metadata adds subscription_name, message_id, publish_time and attributes; BYTES data is base64", async () => {
  const table = tableName();
  bq.declare(table, [col("data", "BYTES", "REQUIRED"), ...METADATA]);
  const pubsub = file.emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { bigqueryConfig: { table, writeMetadata: true } });
  const id = await topic.publishMessage({ data: Buffer.from([0, 255, 1]), attributes: { k: "v", x: "y" } });
  const [row] = await bq.waitRows(table, 1);
  expect(row.data).toBe(Buffer.from([0, 255, 1]).toString("base64"));
  expect(row.subscription_name).toBe(sub.name);
  expect(row.message_id).toBe(id);
  expect(String(row.publish_time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  expect(row.attributes).toEqual({ k: "v", x: "y" });
});

test("write_metadata puts a message's ordering key into the attributes JSON as ordering_key", async () => {
  const table = tableName();
  bq.declare(table, [col("data", "STRING"), ...METADATA]);
  const pubsub = file.emu.client();
  const [topic] = await pubsub.createTopic(unique("t"));
  await topic.createSubscription(unique("s"), { bigqueryConfig: { table, writeMetadata: true } });
  const ordered = pubsub.topic(topic.name, { messageOrdering: true });
  await ordered.publishMessage({ data: Buffer.from("o"), attributes: { k: "v" }, orderingKey: "key-1" });
  const [row] = await bq.waitRows(table, 1);
  expect(row.attributes).toEqual({ k: "v", ordering_key: "key-1" });
});

test("a missing table is NOT_FOUND, and delivery resumes by itself once the table exists", async () => {
  const table = tableName();
  const pubsub = file.emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { bigqueryConfig: { table } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("NOT_FOUND");
  expect(await subscriptionState(sub)).toBe("RESOURCE_ERROR");
  await topic.publishMessage({ data: Buffer.from("waits") });
  await Bun.sleep(50);
  expect(bq.rows(table)).toEqual([]);
  bq.declare(table, [col("data", "STRING")]);
  await file.emu.advance("61s");
  expect(await bq.waitRows(table, 1)).toEqual([{ data: "waits" }]);
  expect(await stateOf(sub, "bigqueryConfig")).toBe("ACTIVE");
  expect(await subscriptionState(sub)).toBe("ACTIVE");
  // Removed again: the next write finds it gone and the subscription reports it once more.
  bq.undeclare(table);
  await topic.publishMessage({ data: Buffer.from("again") });
  await waitFor(() => file.emu.broker.subscriptions.get(sub.name).state === "RESOURCE_ERROR", 5000, "RESOURCE_ERROR again");
  expect(await stateOf(sub, "bigqueryConfig")).toBe("NOT_FOUND");
});

test("a table that does not fit is SCHEMA_MISMATCH until it does", async () => {
  const table = tableName();
  bq.declare(table, [col("payload", "STRING")]);
  const pubsub = file.emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { bigqueryConfig: { table, writeMetadata: true } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("SCHEMA_MISMATCH");
  await topic.publishMessage({ data: Buffer.from("{}") });
  // Metadata columns present, but a REQUIRED column nothing writes: still a mismatch.
  bq.declare(table, [col("data", "JSON"), ...METADATA, col("must", "STRING", "REQUIRED")]);
  await file.emu.advance("61s");
  await Bun.sleep(50);
  expect(await stateOf(sub, "bigqueryConfig")).toBe("SCHEMA_MISMATCH");
  bq.declare(table, [col("data", "JSON"), ...METADATA]);
  for (let i = 0; i < 3 && bq.rows(table).length === 0; i++) {
    await file.emu.advance("61s");
    await Bun.sleep(50);
  }
  const [row] = await bq.waitRows(table, 1);
  expect(row.data).toEqual({});
  expect(await stateOf(sub, "bigqueryConfig")).toBe("ACTIVE");
});

test("an update to another table re-checks it; an update to a pull subscription stops the writes", async () => {
  const good = tableName();
  bq.declare(good, [col("data", "STRING")]);
  const pubsub = file.emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { bigqueryConfig: { table: tableName() } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("NOT_FOUND");
  await sub.setMetadata({ bigqueryConfig: { table: good } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("ACTIVE");
  await topic.publishMessage({ data: Buffer.from("one") });
  await bq.waitRows(good, 1);
  await sub.setMetadata({ bigqueryConfig: {} });
  const [meta] = await sub.getMetadata();
  expect(meta.bigqueryConfig).toBeNull();
  await topic.publishMessage({ data: Buffer.from("two") });
  const [m] = await receive(sub, 1);
  expect(m.data.toString()).toBe("two");
  expect(bq.rows(good)).toHaveLength(1);
});

/** BigQuery subscriptions with use_topic_schema (Avro, Protocol Buffer) and use_table_schema, field by field. */
import { expect, test } from "bun:test";
import protobuf from "protobufjs";
import { PROJECT, unique } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";
import { bigQueryFile, col, METADATA, stateOf } from "./helpers.ts";
import { protoc, SHOP_FILES } from "../helpers/protoc.ts";

const file = bigQueryFile();
const { bq, tableName } = file;

const AVRO = {
  type: "record",
  name: "Order",
  fields: [
    { name: "id", type: "string" },
    { name: "qty", type: "int" },
    { name: "price", type: ["null", "double"] },
    { name: "at", type: { type: "long", logicalType: "timestamp-micros" } },
    { name: "day", type: { type: "int", logicalType: "date" } },
    { name: "tags", type: { type: "array", items: "string" } },
    { name: "kind", type: { type: "enum", name: "Kind", symbols: ["A", "B", "C"] } },
    { name: "ship", type: { type: "record", name: "Ship", fields: [{ name: "city", type: "string" }] } },
    { name: "props", type: { type: "map", values: "long" } },
  ],
};

const AVRO_TABLE = [
  col("id", "STRING", "REQUIRED"),
  col("qty", "INT64", "REQUIRED"),
  col("price", "FLOAT"),
  col("at", "TIMESTAMP"),
  col("day", "DATE"),
  col("tags", "STRING", "REPEATED"),
  col("kind", "INTEGER"),
  col("ship", "RECORD", "NULLABLE", [col("city", "STRING")]),
  col("props", "RECORD", "REPEATED", [col("key", "STRING"), col("value", "INTEGER")]),
];

async function schemaTopic(type: "AVRO" | "PROTOCOL_BUFFER", definition: string, encoding: "JSON" | "BINARY") {
  const pubsub = file.emu.client();
  const schema = await pubsub.createSchema(unique("sch"), type as never, definition);
  const [topic] = await pubsub.createTopic({ name: unique("t"), schemaSettings: { schema: await schema.getName(), encoding } });
  return { pubsub, topic };
}

test("Avro topic schema: each field in its column by the type-mapping rules, with metadata", async () => {
  const table = tableName();
  bq.declare(table, [...AVRO_TABLE, ...METADATA]);
  const { topic } = await schemaTopic("AVRO", JSON.stringify(AVRO), "JSON");
  const [sub] = await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTopicSchema: true, writeMetadata: true } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("ACTIVE");
  const msg = {
    id: "o-1", qty: 3, price: { double: 2.5 }, at: 1700000000123456, day: 19000, tags: ["x", "y"], kind: "C",
    ship: { city: "Oslo" }, props: { a: 1 },
  };
  const id = await topic.publishMessage({ data: Buffer.from(JSON.stringify(msg)) });
  const [row] = await bq.waitRows(table, 1);
  expect(row).toEqual({
    subscription_name: sub.name,
    message_id: id,
    publish_time: expect.stringMatching(/Z$/),
    attributes: expect.objectContaining({ googclient_schemaencoding: "JSON" }),
    id: "o-1", qty: 3, price: 2.5, at: "2023-11-14T22:13:20.123456Z", day: "2022-01-08", tags: ["x", "y"], kind: 2,
    ship: { city: "Oslo" }, props: [{ key: "a", value: 1 }],
  });
});

test("Avro topic schema without metadata: no metadata columns are written; a null union is left out", async () => {
  const table = tableName();
  bq.declare(table, AVRO_TABLE);
  const { topic } = await schemaTopic("AVRO", JSON.stringify(AVRO), "JSON");
  await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTopicSchema: true } });
  const msg = { id: "o-2", qty: 1, price: null, at: 0, day: 0, tags: [], kind: "A", ship: { city: "Rome" }, props: {} };
  await topic.publishMessage({ data: Buffer.from(JSON.stringify(msg)) });
  const [row] = await bq.waitRows(table, 1);
  expect(row).toEqual({ id: "o-2", qty: 1, at: "1970-01-01T00:00:00.000000Z", day: "1970-01-01", tags: [], kind: 0, ship: { city: "Rome" }, props: [] });
});

test("a topic field missing from the table is SCHEMA_MISMATCH, unless drop_unknown_fields drops it", async () => {
  const table = tableName();
  bq.declare(table, AVRO_TABLE.filter((c) => c.name !== "props"));
  const { topic } = await schemaTopic("AVRO", JSON.stringify(AVRO), "JSON");
  const [strict] = await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTopicSchema: true } });
  expect(await stateOf(strict, "bigqueryConfig")).toBe("SCHEMA_MISMATCH");
  const [dropping] = await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTopicSchema: true, dropUnknownFields: true } });
  expect(await stateOf(dropping, "bigqueryConfig")).toBe("ACTIVE");
});

test("incompatible types and optional→REQUIRED are SCHEMA_MISMATCH", async () => {
  const { topic } = await schemaTopic("AVRO", JSON.stringify(AVRO), "JSON");
  for (const change of [col("qty", "STRING", "REQUIRED"), col("price", "FLOAT", "REQUIRED"), col("tags", "STRING")]) {
    const table = tableName();
    bq.declare(table, AVRO_TABLE.map((c) => (c.name === change.name ? change : c)));
    const [sub] = await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTopicSchema: true } });
    expect(await stateOf(sub, "bigqueryConfig")).toBe("SCHEMA_MISMATCH");
  }
});

const PROTO = `syntax = "proto3";
message Reading {
  string sensor = 1;
  int64 at_micros = 2;
  double value = 3;
  bool ok = 4;
  enum Unit { C = 0; F = 1; }
  Unit unit = 5;
  repeated int32 samples = 6;
  message Where { string site = 1; }
  Where where = 7;
  bytes raw = 8;
  string when = 9;
}`;

test("Protocol Buffer topic schema (BINARY): ints as TIMESTAMP, enums as INTEGER, bytes base64, nested records", async () => {
  const table = tableName();
  bq.declare(table, [
    col("sensor", "STRING"), col("at_micros", "TIMESTAMP"), col("value", "NUMERIC"), col("ok", "BOOL"), col("unit", "INTEGER"),
    col("samples", "INTEGER", "REPEATED"), col("where", "STRUCT", "NULLABLE", [col("site", "STRING")]), col("raw", "BYTES"),
    col("when", "DATETIME"), ...METADATA,
  ]);
  const { topic } = await schemaTopic("PROTOCOL_BUFFER", PROTO, "BINARY");
  const [sub] = await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTopicSchema: true, writeMetadata: true } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("ACTIVE");
  const Reading = protobuf.parse(PROTO).root.lookupType("Reading");
  const data = Reading.encode(Reading.fromObject({
    sensor: "s1", atMicros: "1700000000000001", value: 1.25, ok: true, unit: 1, samples: [1, 2], where: { site: "lab" },
    raw: Buffer.from("hi"), when: "2024-02-29 12:30:00",
  })).finish();
  const id = await topic.publishMessage({ data: Buffer.from(data), attributes: { a: "b" } });
  const [row] = await bq.waitRows(table, 1);
  expect(row).toMatchObject({
    sensor: "s1", at_micros: "2023-11-14T22:13:20.000001Z", value: "1.25", ok: true, unit: 1, samples: [1, 2],
    where: { site: "lab" }, raw: Buffer.from("hi").toString("base64"), when: "2024-02-29T12:30:00.000000",
    message_id: id, subscription_name: sub.name,
  });
  expect((row.attributes as Record<string, string>).a).toBe("b");
});

test("use_table_schema: JSON data onto the table's columns; drop_unknown_fields drops extra keys", async () => {
  const table = tableName();
  bq.declare(table, [col("name", "STRING", "REQUIRED"), col("n", "INTEGER"), col("at", "TIMESTAMP"), col("doc", "JSON"), col("ok", "BOOLEAN")]);
  const pubsub = file.emu.client();
  const [topic] = await pubsub.createTopic(unique("t"));
  await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTableSchema: true, dropUnknownFields: true } });
  await topic.publishMessage({ json: { name: "a", n: "42", at: "2024-01-02T03:04:05.5+01:00", doc: { x: [1] }, ok: false, extra: 1 } });
  const [row] = await bq.waitRows(table, 1);
  expect(row).toEqual({ name: "a", n: 42, at: "2024-01-02T02:04:05.500000Z", doc: { x: [1] }, ok: false });
});

test("use_table_schema: a message that cannot be written is redelivered, then dead-lettered as the real service does", async () => {
  const table = tableName();
  bq.declare(table, [col("name", "STRING", "REQUIRED")]);
  const pubsub = file.emu.client();
  const [topic] = await pubsub.createTopic(unique("t"));
  const [dlq] = await pubsub.createTopic(unique("dlq"));
  const [dlqSub] = await dlq.createSubscription(unique("s"));
  const [sub] = await topic.createSubscription(unique("s"), {
    bigqueryConfig: { table, useTableSchema: true },
    deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 5 },
  });
  await topic.publishMessage({ json: { name: "ok" } });
  const badId = await topic.publishMessage({ json: { name: "bad", unknown: true } });
  await bq.waitRows(table, 1);
  const got = receive(dlqSub, 1, { ms: 8000 });
  for (let i = 0; i < 8; i++) {
    await file.emu.advance("61s");
    await Bun.sleep(30);
  }
  const [dead] = await got;
  expect(JSON.parse(dead.data.toString())).toEqual({ name: "bad", unknown: true });
  expect(dead.attributes.CloudPubSubDeadLetterSourceDeliveryCount).toBe("5");
  expect(sub.name.endsWith(`/${dead.attributes.CloudPubSubDeadLetterSourceSubscription}`)).toBe(true);
  expect(bq.rows(table)).toEqual([{ name: "ok" }]);
  expect(badId).toBeTruthy();
});

test("Avro BINARY encoding with logical types: decimal → NUMERIC, time-micros → TIME, duration → INTERVAL, string → JSON", async () => {
  const schema = {
    type: "record",
    name: "Pay",
    fields: [
      { name: "amount", type: { type: "bytes", logicalType: "decimal", precision: 10, scale: 2 } },
      { name: "at", type: { type: "long", logicalType: "time-micros" } },
      { name: "took", type: { type: "fixed", name: "D", size: 12, logicalType: "duration" } },
      { name: "doc", type: "string" },
    ],
  };
  const table = tableName();
  bq.declare(table, [col("amount", "NUMERIC"), col("at", "TIME"), col("took", "INTERVAL"), col("doc", "JSON")]);
  const { topic } = await schemaTopic("AVRO", JSON.stringify(schema), "BINARY");
  const [sub] = await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTopicSchema: true } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("ACTIVE");
  const type = (await import("avsc")).default.Type.forSchema(schema as never);
  const took = Buffer.alloc(12);
  took.writeUInt32LE(14, 0); // months
  took.writeUInt32LE(3, 4); // days
  took.writeUInt32LE(3_723_004, 8); // 1 h 2 min 3.004 s
  const data = type.toBuffer({ amount: Buffer.from([0xff, 0x85]), at: 3_723_000_004, took, doc: '{"k":[1,2]}' });
  await topic.publishMessage({ data });
  const [row] = await bq.waitRows(table, 1);
  expect(row).toEqual({ amount: "-1.23", at: "01:02:03.000004", took: "1-2 3 1:2:3.004", doc: { k: [1, 2] } });
});

test("a compiled (two-file) Protocol Buffer topic schema: use_topic_schema writes the imported message as a RECORD", async () => {
  const table = tableName();
  bq.declare(table, [col("id", "STRING"), col("total", "RECORD", "NULLABLE", [col("currency", "STRING"), col("units", "INTEGER")]), col("items", "STRING", "REPEATED")]);
  const schemaId = unique("sch");
  // Over REST: the Node client's bundled protos do not carry compiled_proto_schema yet.
  const res = await fetch(`http://${file.emu.endpoint}/v1/projects/${PROJECT}/schemas?schemaId=${schemaId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type: "PROTOCOL_BUFFER", compiledProtoSchema: { rootMessage: "shop.Order", compiledBytes: protoc(SHOP_FILES, "shop/order.proto").toString("base64") } }),
  });
  expect(res.status).toBe(200);
  const pubsub = file.emu.client();
  const [topic] = await pubsub.createTopic({ name: unique("t"), schemaSettings: { schema: `projects/${PROJECT}/schemas/${schemaId}`, encoding: "BINARY" } });
  const [sub] = await topic.createSubscription(unique("s"), { bigqueryConfig: { table, useTopicSchema: true } });
  expect(await stateOf(sub, "bigqueryConfig")).toBe("ACTIVE");
  const root = new protobuf.Root();
  for (const text of Object.values(SHOP_FILES)) protobuf.parse(text, root, { keepCase: true });
  const Order = root.lookupType("shop.Order");
  await topic.publishMessage({ data: Buffer.from(Order.encode(Order.fromObject({ id: "o-9", total: { currency: "NOK", units: 40 }, items: ["x"] })).finish()) });
  const [row] = await bq.waitRows(table, 1);
  expect(row).toEqual({ id: "o-9", total: { currency: "NOK", units: 40 }, items: ["x"] });
});

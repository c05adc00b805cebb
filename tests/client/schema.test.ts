/**
 * Schemas through the official Node client: its PubSub schema API (createSchema, schema(),
 * listSchemas, validateSchema, validateMessage), topics with schemaSettings, and the generated
 * SchemaServiceClient for revisions. Mirrors nodejs-pubsub system-test "schema".
 */
import { describe, expect, test } from "bun:test";
import { Encodings, Schema, SchemaTypes, SchemaViews, type PubSub } from "@google-cloud/pubsub";
import avro from "avsc";
import protobuf from "protobufjs";
import { clientSuite } from "../helpers/client-suite.ts";
import { PROJECT, unique } from "../helpers/emulator.ts";
import { grpcCode } from "../helpers/raw-clients.ts";
import { receive } from "../helpers/receive.ts";

const T = 15_000;
const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const s = clientSuite();

/** nodejs-pubsub's system-test fixture, provinces.avsc. */
const PROVINCES = JSON.stringify({
  type: "record",
  name: "Province",
  namespace: "utilities",
  doc: "A list of provinces in Canada.",
  fields: [
    { name: "name", type: "string", doc: "The common name of the province." },
    { name: "post_abbr", type: "string", doc: "The postal code abbreviation of the province." },
  ],
});
const PROTO = 'syntax = "proto3";\npackage utilities;\nmessage StateProto {\n  string name = 1;\n  string post_abbr = 2;\n}\n';

async function collect<T>(it: AsyncIterable<T>, keep: (t: T) => boolean): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) if (keep(x)) out.push(x);
  return out;
}

async function createSchema(ps: PubSub, type: "AVRO" | "PROTOCOL_BUFFER" = SchemaTypes.Avro, definition = PROVINCES) {
  const id = unique("sch");
  const schema = await ps.createSchema(id, type, definition);
  return { id, schema, name: `projects/${PROJECT}/schemas/${id}` };
}

describe("schemas through the official client", () => {
  test("create, list (BASIC and FULL), get and delete", async () => {
    const { id, schema, name } = await createSchema(s.ps);
    const basic = await collect(s.ps.listSchemas(SchemaViews.Basic), (x) => x.name === name);
    expect(basic.length).toBe(1);
    expect(basic[0].definition).toBe("");
    const full = await collect(s.ps.listSchemas(SchemaViews.Full), (x) => x.name === name);
    expect(full[0].definition).toBe(PROVINCES);
    expect((await schema.get(SchemaViews.Basic)).definition).toBe("");
    const info = await schema.get(SchemaViews.Full);
    expect(info.definition).toBe(PROVINCES);
    expect(info.type).toBe("AVRO");
    expect(info.revisionId).toMatch(/^[0-9a-f]{8}$/);
    expect(Number(info.revisionCreateTime?.seconds)).toBeGreaterThan(1_600_000_000);
    expect(await grpcCode(s.ps.createSchema(id, SchemaTypes.Avro, PROVINCES))).toBe(6);
    await s.ps.schema(id).delete();
    expect(await collect(s.ps.listSchemas(), (x) => x.name === name)).toEqual([]);
    expect(await grpcCode(schema.get())).toBe(NOT_FOUND);
  }, T);

  test("validateSchema accepts a good definition and rejects bad ones with INVALID_ARGUMENT", async () => {
    await s.ps.validateSchema({ type: SchemaTypes.Avro, definition: PROVINCES });
    await s.ps.validateSchema({ type: SchemaTypes.ProtocolBuffer, definition: PROTO });
    for (const definition of ['{"not_actually":"avro"}', "woohoo i am a schema, no really"]) {
      expect(await grpcCode(s.ps.validateSchema({ type: SchemaTypes.Avro, definition }))).toBe(INVALID_ARGUMENT);
    }
    expect(await grpcCode(s.ps.validateSchema({ type: SchemaTypes.ProtocolBuffer, definition: "message {" }))).toBe(INVALID_ARGUMENT);
  }, T);

  test("validateMessage checks JSON against the schema", async () => {
    const { schema } = await createSchema(s.ps);
    // The client types the message as a string and its bytes field then takes base64.
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64");
    await schema.validateMessage(b64({ name: "Alberta", post_abbr: "AB" }), Encodings.Json);
    expect(await grpcCode(schema.validateMessage(b64({ foo: "bar" }), Encodings.Json))).toBe(INVALID_ARGUMENT);
  }, T);

  test("a JSON Avro topic takes conforming messages, tags them, and rejects the rest", async () => {
    const { name } = await createSchema(s.ps);
    const [topic] = await s.ps.createTopic({ name: unique("t"), schemaSettings: { schema: name, encoding: Encodings.Json } });
    const [sub] = await topic.createSubscription(unique("s"));
    await topic.publishMessage({ json: { name: "Alberta", post_abbr: "AB" } });
    const [m] = await receive(sub, 1);
    expect(JSON.parse(m.data.toString())).toEqual({ name: "Alberta", post_abbr: "AB" });
    const meta = Schema.metadataFromMessage(m.attributes);
    expect(meta.name).toBe(name);
    expect(meta.encoding).toBe("JSON");
    expect(meta.revision).toMatch(/^[0-9a-f]{8}$/);
    const bad = topic.publishMessage({ json: { name: 42 } });
    expect(await grpcCode(bad)).toBe(INVALID_ARGUMENT);
    const [got] = await topic.getMetadata();
    expect(got.schemaSettings?.schema).toBe(name);
  }, T);

  test("BINARY topics: Avro and Protocol Buffer data encoded by their libraries", async () => {
    const avroSchema = await createSchema(s.ps);
    const protoSchema = await createSchema(s.ps, SchemaTypes.ProtocolBuffer, PROTO);
    const [avroTopic] = await s.ps.createTopic({ name: unique("t"), schemaSettings: { schema: avroSchema.name, encoding: Encodings.Binary } });
    const [protoTopic] = await s.ps.createTopic({ name: unique("t"), schemaSettings: { schema: protoSchema.name, encoding: Encodings.Binary } });
    const avroData = avro.Type.forSchema(JSON.parse(PROVINCES)).toBuffer({ name: "Alberta", post_abbr: "AB" });
    const State = protobuf.parse(PROTO).root.lookupType("utilities.StateProto");
    const protoData = Buffer.from(State.encode({ name: "Alaska", post_abbr: "AK" }).finish());
    await avroTopic.publishMessage({ data: avroData });
    await protoTopic.publishMessage({ data: protoData });
    expect(await grpcCode(avroTopic.publishMessage({ data: Buffer.from('{"name":"Alberta"}') }))).toBe(INVALID_ARGUMENT);
    expect(await grpcCode(protoTopic.publishMessage({ data: Buffer.from([0x0a, 0x09, 0x41]) }))).toBe(INVALID_ARGUMENT);
  }, T);

  test("revisions: commit, get by @revision, list, rollback, delete; a topic's revision range", async () => {
    const { name } = await createSchema(s.ps);
    const client = await s.ps.getSchemaClient();
    const v2Def = JSON.stringify({ ...JSON.parse(PROVINCES), fields: [...JSON.parse(PROVINCES).fields, { name: "capital", type: "string", default: "" }] });
    const [v2] = await client.commitSchema({ name, schema: { name, type: "AVRO", definition: v2Def } });
    const [revisions] = await client.listSchemaRevisions({ name, view: "FULL" });
    expect(revisions.map((r) => r.revisionId)).toEqual([v2.revisionId, revisions[1].revisionId]);
    const v1 = revisions[1];
    const [gotV1] = await client.getSchema({ name: `${name}@${v1.revisionId}` });
    expect(gotV1.definition).toBe(PROVINCES);
    const [rolled] = await client.rollbackSchema({ name, revisionId: v1.revisionId });
    expect(rolled.definition).toBe(PROVINCES);
    const [deleted] = await client.deleteSchemaRevision({ name: `${name}@${v2.revisionId}` });
    expect(deleted.revisionId).toBe(v2.revisionId);
    expect(await grpcCode(client.getSchema({ name: `${name}@${v2.revisionId}` }))).toBe(NOT_FOUND);
    const settings = { schema: name, encoding: Encodings.Json, firstRevisionId: v1.revisionId, lastRevisionId: rolled.revisionId };
    const [topic] = await s.ps.createTopic({ name: unique("t"), schemaSettings: settings });
    const [meta] = await topic.getMetadata();
    expect(meta.schemaSettings?.firstRevisionId).toBe(v1.revisionId);
    await topic.publishMessage({ json: { name: "Alberta", post_abbr: "AB" } });
    const tooEarly = { ...settings, firstRevisionId: rolled.revisionId, lastRevisionId: v1.revisionId };
    expect(await grpcCode(s.ps.createTopic({ name: unique("t"), schemaSettings: tooEarly }))).toBe(INVALID_ARGUMENT);
  }, T);

  test("a topic on a deleted schema reports _deleted-schema_ and publishing to it fails", async () => {
    const { id, name } = await createSchema(s.ps);
    const [topic] = await s.ps.createTopic({ name: unique("t"), schemaSettings: { schema: name, encoding: Encodings.Json } });
    await s.ps.schema(id).delete();
    expect((await topic.getMetadata())[0].schemaSettings?.schema).toBe("_deleted-schema_");
    expect(await grpcCode(topic.publishMessage({ json: { name: "Alberta", post_abbr: "AB" } }))).toBe(FAILED_PRECONDITION);
  }, T);
});

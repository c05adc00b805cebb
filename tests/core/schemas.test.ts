/** SchemaService in the core: schemas, revisions, message validation and topics with schema_settings. */
import { describe, expect, test } from "bun:test";
import avro from "avsc";
import protobuf from "protobufjs";
import type { TopicResource } from "../../src/core/resources.ts";
import { SCHEMA_LIMITS } from "../../src/core/schemas/registry.ts";
import { PROJECT, bytes, caught, makeSub, pullNow, setup, topicName, uid, expectRefused } from "../helpers/core.ts";

const PARENT = `projects/${PROJECT}`;
const AVRO = JSON.stringify({
  type: "record",
  name: "State",
  namespace: "utilities",
  fields: [
    { name: "name", type: "string" },
    { name: "post_abbr", type: "string" },
  ],
});
/** AVRO plus an optional field: a compatible revision. */
const AVRO_V2 = JSON.stringify({
  ...JSON.parse(AVRO),
  fields: [...JSON.parse(AVRO).fields, { name: "population", type: ["null", "long"], default: null }],
});
const PROTO = `syntax = "proto3";
package utilities;
message StateProto {
  string name = 1;
  string post_abbr = 2;
  enum Kind { STATE = 0; TERRITORY = 1; }
  Kind kind = 3;
  int64 population = 4;
  repeated string cities = 5;
  map<string, int32> counts = 6;
  oneof capital { string city = 7; int32 code = 8; }
  Inner inner = 9;
  message Inner { bool ok = 1; }
}`;

const avroType = avro.Type.forSchema(JSON.parse(AVRO));
const protoType = protobuf.parse(PROTO).root.lookupType("utilities.StateProto");
const json = (o: unknown) => bytes(JSON.stringify(o));

function withSchema(type = "AVRO", definition = AVRO) {
  const f = setup();
  const name = `${PARENT}/schemas/${uid("schema")}`;
  const created = f.broker.schemas.create(PARENT, name.split("/").pop(), { type, definition });
  return { ...f, name, created };
}

function schemaTopic(settings: Record<string, unknown>, type = "AVRO", definition = AVRO) {
  const f = withSchema(type, definition);
  const topic = topicName();
  f.broker.topics.create({ name: topic, labels: {}, schemaSettings: { schema: f.name, ...settings } } as TopicResource);
  const sub = makeSub(f.broker, topic);
  return { ...f, topic, sub };
}

describe("schemas", () => {
  test("create, get, list and delete; revision ids are 8 hex digits", () => {
    const { broker, name, created } = withSchema();
    expect(created.revisionId).toMatch(/^[0-9a-f]{8}$/);
    expect(created.type).toBe("AVRO");
    expect(broker.schemas.get(name).definition).toBe(AVRO);
    expect(broker.schemas.get(`${name}@${created.revisionId}`).revisionId).toBe(created.revisionId);
    expect(broker.schemas.list(PARENT).items.map((s) => s.name)).toContain(name);
    expect(caught(() => broker.schemas.create(PARENT, name.split("/").pop(), { type: "AVRO", definition: AVRO })).code).toBe("ALREADY_EXISTS");
    broker.schemas.delete(name);
    expect(caught(() => broker.schemas.get(name)).code).toBe("NOT_FOUND");
    expect(caught(() => broker.schemas.delete(name)).code).toBe("NOT_FOUND");
  });

  test("bad ids, types and definitions are INVALID_ARGUMENT naming the problem", () => {
    const { broker } = setup();
    const cases: [string | undefined, string | undefined, string, string][] = [
      ["AVRO", AVRO, "1bad", "schema_id"],
      ["TYPE_UNSPECIFIED", AVRO, uid("s"), "schema.type"],
      ["AVRO", "", uid("s"), "definition"],
      ["AVRO", "woohoo i am a schema, no really", uid("s"), "Avro"],
      ["AVRO", '{"not_actually":"avro"}', uid("s"), "Avro"],
      ["PROTOCOL_BUFFER", "message {", uid("s"), "Protocol Buffer"],
      ["PROTOCOL_BUFFER", 'syntax = "proto3"; message A { int32 a = 1; } message B { int32 b = 1; }', uid("s"), "exactly one"],
      ["PROTOCOL_BUFFER", 'syntax = "proto3"; import "x.proto"; message A { int32 a = 1; }', uid("s"), "imports"],
      ["PROTOCOL_BUFFER", 'syntax = "proto3"; message A { Missing m = 1; }', uid("s"), "Missing"],
      ["AVRO", JSON.stringify({ type: "record", name: "Big", doc: "x".repeat(301 * 1024), fields: [] }), uid("s"), "307200"],
    ];
    for (const [type, definition, id, words] of cases) {
      const e = caught(() => broker.schemas.create(PARENT, id, { type, definition }));
      expect([id, e.code]).toEqual([id, "INVALID_ARGUMENT"]);
      expect(e.message).toContain(words);
    }
  });

  test("commit adds a revision, newest first in the list; an incompatible one is refused", () => {
    const { broker, name, created } = withSchema();
    const v2 = broker.schemas.commit(name, { type: "AVRO", definition: AVRO_V2 });
    expect(v2.revisionId).not.toBe(created.revisionId);
    expect(broker.schemas.get(name).revisionId).toBe(v2.revisionId);
    expect(broker.schemas.listRevisions(name).items.map((r) => r.revisionId)).toEqual([v2.revisionId, created.revisionId]);
    const incompatible = JSON.stringify({ type: "record", name: "State", namespace: "utilities", fields: [{ name: "name", type: "int" }] });
    expectRefused(() => broker.schemas.commit(name, { type: "AVRO", definition: incompatible }), "INVALID_ARGUMENT", "not compatible");
    expect(caught(() => broker.schemas.commit(name, { type: "PROTOCOL_BUFFER", definition: PROTO })).code).toBe("INVALID_ARGUMENT");
  });

  test("protobuf revisions may add or drop optional fields, not change one", () => {
    const { broker, name } = withSchema("PROTOCOL_BUFFER", 'syntax = "proto3"; message M { string a = 1; }');
    broker.schemas.commit(name, { definition: 'syntax = "proto3"; message M { string a = 1; int32 b = 2; }' });
    broker.schemas.commit(name, { definition: 'syntax = "proto3"; message M { int32 b = 2; }' });
    const e = caught(() => broker.schemas.commit(name, { definition: 'syntax = "proto3"; message M { string b = 2; }' }));
    expect(e.message).toContain("may not be changed");
  });

  test("rollback copies an old definition into a new revision; delete revision keeps the last one", () => {
    const { broker, name, created } = withSchema();
    const v2 = broker.schemas.commit(name, { definition: AVRO_V2 });
    const back = broker.schemas.rollback(name, created.revisionId);
    expect(back.definition).toBe(AVRO);
    expect(new Set([created.revisionId, v2.revisionId, back.revisionId]).size).toBe(3);
    expect(caught(() => broker.schemas.rollback(name, "deadbeef")).code).toBe("NOT_FOUND");
    expect(broker.schemas.deleteRevision(`${name}@${v2.revisionId}`).revisionId).toBe(v2.revisionId);
    expect(broker.schemas.deleteRevision(name, created.revisionId).revisionId).toBe(created.revisionId);
    expect(caught(() => broker.schemas.get(`${name}@${v2.revisionId}`)).code).toBe("NOT_FOUND");
    expect(caught(() => broker.schemas.deleteRevision(`${name}@${back.revisionId}`)).code).toBe("FAILED_PRECONDITION");
    expect(caught(() => broker.schemas.deleteRevision(name)).code).toBe("INVALID_ARGUMENT");
  });

  test(`at most ${SCHEMA_LIMITS.revisionsPerSchema} revisions`, () => {
    const { broker, name } = withSchema();
    for (let i = 1; i < SCHEMA_LIMITS.revisionsPerSchema; i++) broker.schemas.commit(name, { definition: AVRO });
    expectRefused(() => broker.schemas.commit(name, { definition: AVRO }), "RESOURCE_EXHAUSTED", "20");
  });

  test("ValidateMessage: Avro and Protocol Buffer, JSON and BINARY, by name or inline", () => {
    const { broker, name } = withSchema();
    const ok = (data: Uint8Array, encoding: string, spec: object = { name }) => broker.schemas.validateMessage(PARENT, spec, data, encoding);
    ok(json({ name: "Alaska", post_abbr: "AK" }), "JSON");
    ok(avroType.toBuffer({ name: "Alaska", post_abbr: "AK" }), "BINARY");
    expect(caught(() => ok(json({ name: "Alaska" }), "JSON")).message).toContain("Invalid data in message");
    expect(caught(() => ok(bytes("garbage"), "BINARY")).code).toBe("INVALID_ARGUMENT");
    const proto = { schema: { type: "PROTOCOL_BUFFER", definition: PROTO } };
    ok(json({ name: "Alaska", postAbbr: "AK", kind: "TERRITORY", population: "731545", cities: ["Juneau"], counts: { a: 1 }, city: "Juneau", inner: { ok: true } }), "JSON", proto);
    ok(protoType.encode({ name: "Alaska", post_abbr: "AK" }).finish(), "BINARY", proto);
    for (const bad of [{ nope: 1 }, { name: 3 }, { kind: "NOPE" }, { city: "a", code: 1 }, { cities: "x" }, { inner: { ok: "yes" } }, { population: 1.5 }, [1]]) {
      expect(caught(() => ok(json(bad), "JSON", proto)).code).toBe("INVALID_ARGUMENT");
    }
    expect(caught(() => ok(Uint8Array.of(0x0a, 0x05, 0x41), "BINARY", proto)).code).toBe("INVALID_ARGUMENT");
    expect(caught(() => ok(Buffer.from([9, 0x0a, 0x05, 0x41]).subarray(1), "BINARY", proto)).code).toBe("INVALID_ARGUMENT");
    expect(caught(() => broker.schemas.validateMessage(PARENT, {}, json({}), "JSON")).code).toBe("INVALID_ARGUMENT");
  });
});

describe("topics with schema_settings", () => {
  test("conforming messages are stored with the googclient_schema* attributes", async () => {
    const { broker, topic, sub, name, created } = schemaTopic({ encoding: "JSON" });
    broker.topics.publish(topic, [{ data: json({ name: "Alaska", post_abbr: "AK" }), attributes: { mine: "1" } }]);
    const [d] = await pullNow(broker, sub);
    expect({ ...d.message.attributes }).toEqual({
      mine: "1",
      googclient_schemaname: name,
      googclient_schemaencoding: "JSON",
      googclient_schemarevisionid: created.revisionId,
    });
  });

  test("a non-conforming message fails the whole publish with INVALID_ARGUMENT naming it", async () => {
    const { broker, topic, sub } = schemaTopic({ encoding: "BINARY" });
    const good = avroType.toBuffer({ name: "Alaska", post_abbr: "AK" });
    const e = expectRefused(() => broker.topics.publish(topic, [{ data: good }, { data: json({ name: "Alaska", post_abbr: "AK" }) }]), "INVALID_ARGUMENT", "messages[1]");
    expect(e.message).toContain("BINARY");
    expect(await pullNow(broker, sub)).toEqual([]);
    broker.topics.publish(topic, [{ data: good }]);
    expect((await pullNow(broker, sub))[0].message.attributes.googclient_schemaencoding).toBe("BINARY");
  });

  test("the revision range decides which revisions a message may match; the newest matching one is named", async () => {
    const { broker, name, created } = withSchema();
    const v2 = broker.schemas.commit(name, { definition: AVRO_V2 });
    // In BINARY, data written with v2 has bytes v1 does not read: only v2 accepts it.
    const v2Only = avro.Type.forSchema(JSON.parse(AVRO_V2)).toBuffer({ name: "Alaska", post_abbr: "AK", population: 731545 });
    const v1Only = avroType.toBuffer({ name: "Alaska", post_abbr: "AK" }); // v2 expects more bytes
    const firstOnly = topicName();
    const settings = (extra: object) => ({ schema: name, encoding: "BINARY", ...extra });
    broker.topics.create({ name: firstOnly, labels: {}, schemaSettings: settings({ lastRevisionId: created.revisionId }) } as TopicResource);
    expect(caught(() => broker.topics.publish(firstOnly, [{ data: v2Only }])).code).toBe("INVALID_ARGUMENT");
    const all = topicName();
    broker.topics.create({ name: all, labels: {}, schemaSettings: settings({}) } as TopicResource);
    const sub = makeSub(broker, all);
    broker.topics.publish(all, [{ data: v2Only }, { data: v1Only }]);
    const got = await pullNow(broker, sub);
    expect(got.map((d) => d.message.attributes.googclient_schemarevisionid)).toEqual([v2.revisionId, created.revisionId]);
    const bad = { name: topicName(), labels: {}, schemaSettings: { schema: name, firstRevisionId: v2.revisionId, lastRevisionId: created.revisionId } };
    expect(caught(() => broker.topics.create(bad as TopicResource)).message).toContain("first_revision_id");
    const unknown = { name: topicName(), labels: {}, schemaSettings: { schema: name, firstRevisionId: "00000000" } };
    expect(caught(() => broker.topics.create(unknown as TopicResource)).code).toBe("INVALID_ARGUMENT");
  });

  test("a topic on a missing schema is NOT_FOUND; a deleted schema makes publishing fail", () => {
    const { broker, topic, name } = schemaTopic({});
    const missing = { name: topicName(), labels: {}, schemaSettings: { schema: `${PARENT}/schemas/nope` } };
    expect(caught(() => broker.topics.create(missing as TopicResource)).code).toBe("NOT_FOUND");
    broker.schemas.delete(name);
    expect((broker.topics.get(topic).schemaSettings as { schema: string }).schema).toBe("_deleted-schema_");
    expect(caught(() => broker.topics.publish(topic, [{ data: json({ name: "a", post_abbr: "b" }) }])).code).toBe("FAILED_PRECONDITION");
  });

  test("UpdateTopic can add and remove schema_settings", () => {
    const { broker, name } = withSchema();
    const topic = topicName();
    broker.topics.create({ name: topic, labels: {} });
    broker.topics.publish(topic, [{ data: bytes("anything") }]);
    broker.topics.update({ name: topic, labels: {}, schemaSettings: { schema: name } } as TopicResource, ["schema_settings"]);
    expect(caught(() => broker.topics.publish(topic, [{ data: bytes("anything") }])).code).toBe("INVALID_ARGUMENT");
    broker.topics.update({ name: topic, labels: {} }, ["schema_settings"]);
    broker.topics.publish(topic, [{ data: bytes("anything") }]);
  });
});

/**
 * Compiled Protocol Buffer schemas (Schema.compiled_proto_schema, googleapis 2026-08): a
 * FileDescriptorSet made by protoc from two files, one importing the other. Schemas are created
 * and revised over REST (the Node client's bundled protos do not carry the field yet); topics
 * bound to them and messages go through the official Node client, in BINARY and JSON encodings.
 */
import { describe, expect, test } from "bun:test";
import protobuf from "protobufjs";
import { Encodings } from "@google-cloud/pubsub";
import { clientSuite } from "../helpers/client-suite.ts";
import { PROJECT, unique } from "../helpers/emulator.ts";
import { protoc, SHOP_FILES, SHOP_FILES_BAD, SHOP_FILES_V2 } from "../helpers/protoc.ts";
import { receive } from "../helpers/receive.ts";

const T = 20_000;
const s = clientSuite();
const SET = protoc(SHOP_FILES, "shop/order.proto");
const compiled = (bytes: Buffer = SET, rootMessage = "shop.Order") => ({ rootMessage, compiledBytes: bytes.toString("base64") });

/** The publisher's side: the same two files, parsed by protobufjs. */
const root = new protobuf.Root();
root.resolvePath = (_o, target) => target;
for (const [path, text] of Object.entries(SHOP_FILES)) protobuf.parse(text, root, { keepCase: true });
const Order = root.lookupType("shop.Order");
const order = (id: string) => Buffer.from(Order.encode(Order.fromObject({ id, total: { currency: "EUR", units: 12 }, items: ["a", "b"] })).finish());

async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`http://${s.emu.endpoint}/v1/projects/${PROJECT}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, json: await res.json() };
}

async function createCompiled(bytes: Buffer = SET) {
  const id = unique("sch");
  const r = await rest("POST", `/schemas?schemaId=${id}`, { type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled(bytes) });
  expect(r.status).toBe(200);
  return { id, name: `projects/${PROJECT}/schemas/${id}`, created: r.json };
}

describe("a two-file compiled schema", () => {
  test("created from protoc's FileDescriptorSet: Get (FULL) returns it, the BASIC list leaves it out", async () => {
    const { id, name, created } = await createCompiled();
    expect(created.compiledProtoSchema).toEqual(compiled());
    expect(created.definition ?? "").toBe("");
    expect(created.revisionId).toMatch(/^[0-9a-f]{8}$/);
    const got = await rest("GET", `/schemas/${id}`);
    expect(got.json.compiledProtoSchema).toEqual(compiled());
    const list = await rest("GET", `/schemas?view=BASIC`);
    const mine = list.json.schemas.find((x: { name: string }) => x.name === name);
    expect(mine.compiledProtoSchema).toBeUndefined();
    // The official client reads the schema (its protos drop the unknown field, the rest is there).
    const info = await s.ps.schema(id).get();
    expect(info.type).toBe("PROTOCOL_BUFFER");
  }, T);

  test("a topic bound in BINARY takes messages of the root type, types imported from the other file included", async () => {
    const { name } = await createCompiled();
    const [topic] = await s.ps.createTopic({ name: unique("t"), schemaSettings: { schema: name, encoding: Encodings.Binary } });
    const [sub] = await topic.createSubscription(unique("s"));
    await topic.publishMessage({ data: order("o-1") });
    const [m] = await receive(sub, 1);
    expect(Order.toObject(Order.decode(m.data), { longs: Number })).toEqual({ id: "o-1", total: { currency: "EUR", units: 12 }, items: ["a", "b"] });
    expect(m.attributes.googclient_schemaname).toBe(name);
    expect(m.attributes.googclient_schemaencoding).toBe("BINARY");
    const err = await topic.publishMessage({ data: Buffer.from([0x12, 0xff, 0x01]) }).then(() => null, (e) => e as { code: number; message: string });
    expect(err?.code).toBe(3);
  }, T);

  test("a topic bound in JSON checks the proto3 JSON mapping through the imported message", async () => {
    const { name } = await createCompiled();
    const [topic] = await s.ps.createTopic({ name: unique("t"), schemaSettings: { schema: name, encoding: Encodings.Json } });
    const ok = { id: "o-2", total: { currency: "EUR", units: "7" }, items: [] };
    expect(await topic.publishMessage({ data: Buffer.from(JSON.stringify(ok)) })).toMatch(/^\d+$/);
    const bad = { id: "o-3", total: { currency: "EUR", cents: 5 } };
    const err = await topic.publishMessage({ data: Buffer.from(JSON.stringify(bad)) }).then(() => null, (e) => e as { code: number; message: string });
    expect(err?.code).toBe(3);
    expect(err?.message).toContain('unknown field "cents"');
  }, T);
});

describe("ValidateSchema, ValidateMessage and the rules", () => {
  test("well-known types imported from protoc's include path take their JSON forms (Timestamp, Duration, wrappers, Struct)", async () => {
    const set = protoc(
      {
        "event.proto":
          'syntax = "proto3";\npackage ev;\nimport "google/protobuf/timestamp.proto";\nimport "google/protobuf/duration.proto";\n' +
          'import "google/protobuf/wrappers.proto";\nimport "google/protobuf/struct.proto";\n' +
          "message Event {\n  google.protobuf.Timestamp at = 1;\n  google.protobuf.Duration took = 2;\n  google.protobuf.Int64Value count = 3;\n  google.protobuf.Struct extra = 4;\n}\n",
      },
      "event.proto",
    );
    const schema = { type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled(set, "ev.Event") };
    const check = (v: unknown) => rest("POST", "/schemas:validateMessage", { schema, encoding: "JSON", message: Buffer.from(JSON.stringify(v)).toString("base64") });
    expect((await check({ at: "2026-08-21T10:00:00.5Z", took: "1.5s", count: "12", extra: { any: [1, "x"] } })).status).toBe(200);
    const bad = await check({ at: { seconds: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("google.protobuf.Timestamp");
    expect((await check({ took: "soon" })).status).toBe(400);
  }, T);

  test("ValidateSchema and ValidateMessage take an inline compiled schema; ValidateMessage a stored one", async () => {
    expect((await rest("POST", "/schemas:validate", { schema: { type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled() } })).status).toBe(200);
    const inline = { schema: { type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled() }, encoding: "BINARY" };
    expect((await rest("POST", "/schemas:validateMessage", { ...inline, message: order("v").toString("base64") })).status).toBe(200);
    const bad = await rest("POST", "/schemas:validateMessage", { ...inline, message: Buffer.from([0x0a, 0x05]).toString("base64") });
    expect(bad.status).toBe(400);
    const { name } = await createCompiled();
    const json = Buffer.from(JSON.stringify({ id: "x", items: ["y"] })).toString("base64");
    expect((await rest("POST", "/schemas:validateMessage", { name, message: json, encoding: "JSON" })).status).toBe(200);
  }, T);

  test("refusals name the field: mutually exclusive with definition, PROTOCOL_BUFFER only, root_message known, imports included", async () => {
    const cases: [unknown, string][] = [
      [{ type: "PROTOCOL_BUFFER", definition: 'syntax = "proto3"; message A { string a = 1; }', compiledProtoSchema: compiled() }, "mutually exclusive"],
      [{ type: "AVRO", compiledProtoSchema: compiled() }, "schema.compiled_proto_schema requires schema.type PROTOCOL_BUFFER"],
      [{ type: "PROTOCOL_BUFFER", compiledProtoSchema: { compiledBytes: SET.toString("base64") } }, "schema.compiled_proto_schema.root_message is required"],
      [{ type: "PROTOCOL_BUFFER", compiledProtoSchema: { rootMessage: "shop.Order" } }, "schema.compiled_proto_schema.compiled_bytes is required"],
      [{ type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled(SET, "shop.Missing") }, "schema.compiled_proto_schema.root_message"],
      [{ type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled(Buffer.from("not a descriptor set")) }, "schema.compiled_proto_schema.compiled_bytes"],
      // Without --include_imports the set lacks money.proto: shop.common.Money cannot resolve.
      [{ type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled(protoc(SHOP_FILES, "shop/order.proto", { includeImports: false })) }, "compiled_bytes"],
    ];
    for (const [schema, words] of cases) {
      const r = await rest("POST", `/schemas?schemaId=${unique("sch")}`, schema);
      expect(r.status).toBe(400);
      expect(r.json.error.message).toContain(words);
    }
  }, T);

  test("hostile compiled bytes are refused naming the field or compile, never an internal error; the server keeps serving", async () => {
    /** Messages nested `depth` deep (DescriptorProto.nested_type) in set.file[0].message_type[0], written back to front. */
    function nested(depth: number): Uint8Array {
      const buf = new Uint8Array(depth * 8 + 64);
      let at = buf.length;
      const put = (...bytes: number[]) => buf.set(bytes, (at -= bytes.length));
      const varint = (n: number) => {
        const out: number[] = [];
        do {
          out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
          n >>>= 7;
        } while (n);
        return out;
      };
      put(0x0a, 0x01, 0x41); // name "A"
      for (let i = 0; i < depth + 2; i++) put(i === depth + 1 ? 0x0a : i === depth ? 0x22 : 0x1a, ...varint(buf.length - at));
      return buf.subarray(at);
    }
    const blobs = [nested(40_000), new Uint8Array(4096).map((_, i) => (i * 7919) & 0xff), new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])];
    for (const blob of blobs) {
      const r = await rest("POST", "/schemas:validate", { schema: { type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled(Buffer.from(blob), "A") } });
      expect([200, 400]).toContain(r.status);
      if (r.status === 400) expect(r.json.error.message).toContain("schema.compiled_proto_schema.");
    }
    expect((await rest("POST", "/schemas:validate", { schema: { type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled() } })).status).toBe(200);
  }, T);

  test("revisions: a compatible commit, an incompatible one refused, rollback to the first; ValidateMessage against each revision", async () => {
    const { id, name, created } = await createCompiled();
    const v2 = await rest("POST", `/schemas/${id}:commit`, { schema: { type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled(protoc(SHOP_FILES_V2, "shop/order.proto")) } });
    expect(v2.status).toBe(200);
    expect(v2.json.revisionId).not.toBe(created.revisionId);
    const bad = await rest("POST", `/schemas/${id}:commit`, { schema: { type: "PROTOCOL_BUFFER", compiledProtoSchema: compiled(protoc(SHOP_FILES_BAD, "shop/order.proto")) } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("field total = 2 may not be changed");
    const back = await rest("POST", `/schemas/${id}:rollback`, { revisionId: created.revisionId });
    expect(back.status).toBe(200);
    expect(back.json.compiledProtoSchema).toEqual(compiled());
    const revisions = await rest("GET", `/schemas/${id}:listRevisions?view=FULL`);
    expect(revisions.json.schemas.length).toBe(3);
    // A JSON message with v2's field passes against the v2 revision only.
    const withNote = Buffer.from(JSON.stringify({ id: "n", note: "hi" })).toString("base64");
    expect((await rest("POST", "/schemas:validateMessage", { name: `${name}@${v2.json.revisionId}`, message: withNote, encoding: "JSON" })).status).toBe(200);
    expect((await rest("POST", "/schemas:validateMessage", { name: `${name}@${created.revisionId}`, message: withNote, encoding: "JSON" })).status).toBe(400);
  }, T);
});

test("the 2026 HTTP rules: GET …/schemas/{s}:getIamPolicy (as discovery-based clients send it), POST :setIamPolicy and :testIamPermissions", async () => {
  const { id } = await createCompiled();
  const get = await rest("GET", `/schemas/${id}:getIamPolicy`);
  expect(get.status).toBe(200);
  expect(typeof get.json.etag).toBe("string");
  const policy = { bindings: [{ role: "roles/pubsub.viewer", members: ["user:a@example.com"] }], etag: get.json.etag };
  const set = await rest("POST", `/schemas/${id}:setIamPolicy`, { policy });
  expect(set.status).toBe(200);
  expect((await rest("GET", `/schemas/${id}:getIamPolicy`)).json.bindings).toEqual(policy.bindings);
  const perms = await rest("POST", `/schemas/${id}:testIamPermissions`, { permissions: ["pubsub.schemas.get"] });
  expect(perms.status).toBe(200);
  expect((await rest("GET", `/schemas/${unique("sch")}:getIamPolicy`)).status).toBe(404);
}, T);

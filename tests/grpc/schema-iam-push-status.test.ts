/**
 * Status codes and messages of SchemaService, IAMPolicy and push configs through raw grpc-js
 * clients: one row per rule, each message naming the field or the limit.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { packageDefinition } from "../../src/grpc/proto.ts";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { CALL_TIMEOUT_MS, CLIENT_OPTIONS, statusOf } from "../helpers/raw-grpc.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
const S = grpc.status;
const PARENT = `projects/${PROJECT}`;
const AVRO = JSON.stringify({ type: "record", name: "R", fields: [{ name: "a", type: "string" }] });

let emu: TestEmulator;
let clients: Obj;
let schema: string;
let topic: string;
let pushSub: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const root = grpc.loadPackageDefinition(packageDefinition) as any;
const call = (service: string, method: string, req: Obj): Promise<Obj> =>
  new Promise((resolve, reject) =>
    clients[service][method](req, { deadline: Date.now() + CALL_TIMEOUT_MS }, (err: grpc.ServiceError | null, res: Obj) =>
      err ? reject(err) : resolve(res),
    ),
  );

beforeAll(async () => {
  emu = await startTestEmulator();
  const creds = grpc.credentials.createInsecure();
  clients = {
    schemas: new root.google.pubsub.v1.SchemaService(emu.endpoint, creds, CLIENT_OPTIONS),
    iam: new root.google.iam.v1.IAMPolicy(emu.endpoint, creds, CLIENT_OPTIONS),
    publisher: new root.google.pubsub.v1.Publisher(emu.endpoint, creds, CLIENT_OPTIONS),
    subscriber: new root.google.pubsub.v1.Subscriber(emu.endpoint, creds, CLIENT_OPTIONS),
  };
  schema = (await call("schemas", "CreateSchema", { parent: PARENT, schemaId: unique("sch"), schema: { type: "AVRO", definition: AVRO } })).name;
  topic = `${PARENT}/topics/${unique("t")}`;
  await call("publisher", "CreateTopic", { name: topic, schemaSettings: { schema, encoding: "JSON" } });
  pushSub = `${PARENT}/subscriptions/${unique("s")}`;
  await call("subscriber", "CreateSubscription", { name: pushSub, topic, pushConfig: { pushEndpoint: "http://127.0.0.1:9/push" } });
});

afterAll(async () => {
  for (const c of Object.values(clients ?? {})) c.close();
  await emu?.close();
});

const rows: { name: string; run: () => Promise<unknown>; code: grpc.status; mentions: string }[] = [
  { name: "CreateSchema without schema_id → INVALID_ARGUMENT", run: () => call("schemas", "CreateSchema", { parent: PARENT, schema: { type: "AVRO", definition: AVRO } }), code: S.INVALID_ARGUMENT, mentions: "schema_id" },
  { name: "CreateSchema of an existing schema → ALREADY_EXISTS", run: () => call("schemas", "CreateSchema", { parent: PARENT, schemaId: schema.split("/")[3], schema: { type: "AVRO", definition: AVRO } }), code: S.ALREADY_EXISTS, mentions: "schemas/" },
  { name: "CreateSchema with TYPE_UNSPECIFIED → INVALID_ARGUMENT", run: () => call("schemas", "CreateSchema", { parent: PARENT, schemaId: unique("s"), schema: { definition: AVRO } }), code: S.INVALID_ARGUMENT, mentions: "schema.type" },
  { name: "CreateSchema with a 300 KB + 1 definition → INVALID_ARGUMENT", run: () => call("schemas", "CreateSchema", { parent: PARENT, schemaId: unique("s"), schema: { type: "AVRO", definition: " ".repeat(300 * 1024) + AVRO } }), code: S.INVALID_ARGUMENT, mentions: "307200" },
  { name: "CreateSchema with a bad parent → INVALID_ARGUMENT", run: () => call("schemas", "CreateSchema", { parent: "nope", schemaId: unique("s"), schema: { type: "AVRO", definition: AVRO } }), code: S.INVALID_ARGUMENT, mentions: "parent" },
  { name: "GetSchema of a missing schema → NOT_FOUND", run: () => call("schemas", "GetSchema", { name: `${PARENT}/schemas/${unique("missing")}` }), code: S.NOT_FOUND, mentions: "missing" },
  { name: "GetSchema of a missing revision → NOT_FOUND", run: () => call("schemas", "GetSchema", { name: `${schema}@ffffffff` }), code: S.NOT_FOUND, mentions: "ffffffff" },
  { name: "DeleteSchemaRevision of the only revision → FAILED_PRECONDITION", run: async () => call("schemas", "DeleteSchemaRevision", { name: `${schema}@${(await call("schemas", "GetSchema", { name: schema })).revisionId}` }), code: S.FAILED_PRECONDITION, mentions: "only revision" },
  { name: "ValidateMessage of non-conforming data → INVALID_ARGUMENT", run: () => call("schemas", "ValidateMessage", { parent: PARENT, name: schema, message: Buffer.from("{}"), encoding: "JSON" }), code: S.INVALID_ARGUMENT, mentions: "Invalid data in message" },
  { name: "Publish of non-conforming data to a schema topic → INVALID_ARGUMENT", run: () => call("publisher", "Publish", { topic, messages: [{ data: Buffer.from("{}") }] }), code: S.INVALID_ARGUMENT, mentions: "messages[0]" },
  { name: "CreateTopic on a missing schema → NOT_FOUND", run: () => call("publisher", "CreateTopic", { name: `${PARENT}/topics/${unique("t")}`, schemaSettings: { schema: `${PARENT}/schemas/${unique("missing")}` } }), code: S.NOT_FOUND, mentions: "missing" },
  { name: "CreateTopic with an unknown first_revision_id → INVALID_ARGUMENT", run: () => call("publisher", "CreateTopic", { name: `${PARENT}/topics/${unique("t")}`, schemaSettings: { schema, firstRevisionId: "00000000" } }), code: S.INVALID_ARGUMENT, mentions: "first_revision_id" },
  { name: "GetIamPolicy of a missing topic → NOT_FOUND", run: () => call("iam", "GetIamPolicy", { resource: `${PARENT}/topics/${unique("missing")}` }), code: S.NOT_FOUND, mentions: "missing" },
  { name: "GetIamPolicy of a snapshot → NOT_FOUND", run: () => call("iam", "GetIamPolicy", { resource: `${PARENT}/snapshots/${unique("snap")}` }), code: S.NOT_FOUND, mentions: "snapshots/" },
  { name: "GetIamPolicy of something else → INVALID_ARGUMENT", run: () => call("iam", "GetIamPolicy", { resource: "projects/p/buckets/b" }), code: S.INVALID_ARGUMENT, mentions: "resource" },
  { name: "SetIamPolicy with a stale etag → ABORTED", run: async () => {
    const read = await call("iam", "GetIamPolicy", { resource: topic });
    await call("iam", "SetIamPolicy", { resource: topic, policy: { bindings: [], etag: read.etag } });
    return call("iam", "SetIamPolicy", { resource: topic, policy: { bindings: [], etag: read.etag } });
  }, code: S.ABORTED, mentions: "concurrent policy changes" },
  { name: "SetIamPolicy with a bad member → INVALID_ARGUMENT", run: () => call("iam", "SetIamPolicy", { resource: topic, policy: { bindings: [{ role: "roles/pubsub.viewer", members: ["everyone"] }] } }), code: S.INVALID_ARGUMENT, mentions: "everyone" },
  { name: "TestIamPermissions with a wildcard → INVALID_ARGUMENT", run: () => call("iam", "TestIamPermissions", { resource: topic, permissions: ["pubsub.*"] }), code: S.INVALID_ARGUMENT, mentions: "pubsub.*" },
  { name: "CreateSubscription with a push endpoint that is not a URL → INVALID_ARGUMENT", run: () => call("subscriber", "CreateSubscription", { name: `${PARENT}/subscriptions/${unique("s")}`, topic, pushConfig: { pushEndpoint: "nope" } }), code: S.INVALID_ARGUMENT, mentions: "push_config.push_endpoint" },
  { name: "ModifyPushConfig with an OIDC token without a service account → INVALID_ARGUMENT", run: () => call("subscriber", "ModifyPushConfig", { subscription: pushSub, pushConfig: { pushEndpoint: "http://127.0.0.1:9/push", oidcToken: {} } }), code: S.INVALID_ARGUMENT, mentions: "service_account_email" },
  { name: "Pull on a push subscription → FAILED_PRECONDITION", run: () => call("subscriber", "Pull", { subscription: pushSub, maxMessages: 1 }), code: S.FAILED_PRECONDITION, mentions: "push" },
];

describe("SchemaService, IAMPolicy and push status codes", () => {
  for (const row of rows) {
    test(row.name, async () => {
      const { code, details } = await statusOf(row.run());
      expect(code).toBe(row.code);
      expect(details).toContain(row.mentions);
    });
  }
});

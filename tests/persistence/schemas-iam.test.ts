/**
 * Schemas and IAM policies on a SQLite data dir, across a clean restart (manual clock): revisions
 * compile again, topics' schema_settings resolve, publishes validate and are marked as before,
 * policies keep their etags; deletions are durable; a data dir of schema version 1 upgrades.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { TopicResource } from "../../src/core/resources.ts";
import { APPLICATION_ID, DB_FILE, MIGRATIONS, SCHEMA_VERSION } from "../../src/persistence/schema.ts";
import { SqliteStore } from "../../src/persistence/sqlite-store.ts";
import { PROJECT, bytes, caught, makeSub, pullNow, topicName, uid } from "../helpers/core.ts";
import { cleanupDataDirs, sqliteKind, tempDataDir } from "../helpers/stores.ts";
import { protoc, SHOP_FILES } from "../helpers/protoc.ts";

afterAll(cleanupDataDirs);

const PARENT = `projects/${PROJECT}`;
const AVRO = JSON.stringify({ type: "record", name: "State", fields: [{ name: "name", type: "string" }] });
const AVRO_V2 = JSON.stringify({ ...JSON.parse(AVRO), fields: [...JSON.parse(AVRO).fields, { name: "pop", type: ["null", "long"], default: null }] });
const json = (o: unknown) => bytes(JSON.stringify(o));
const ROLE = { role: "roles/pubsub.viewer", members: ["user:a@example.com"] };

function durable() {
  const clock = new ManualClock();
  const f = { clock, store: sqliteKind.create() as SqliteStore, broker: null as unknown as Broker };
  f.broker = new Broker({ clock, store: f.store });
  return Object.assign(f, {
    restart() {
      f.store = sqliteKind.reopen(f.store) as SqliteStore;
      f.clock = new ManualClock(f.clock.now());
      f.broker = new Broker({ clock: f.clock, store: f.store });
    },
  });
}

/** A schema with two revisions, a topic bound to both, a subscription, and a policy on each. */
function fixture() {
  const d = durable();
  const id = uid("schema");
  const schema = `${PARENT}/schemas/${id}`;
  const v1 = d.broker.schemas.create(PARENT, id, { type: "AVRO", definition: AVRO });
  d.clock.advance(1000);
  const v2 = d.broker.schemas.commit(schema, { definition: AVRO_V2 });
  const topic = topicName();
  d.broker.topics.create({ name: topic, labels: {}, schemaSettings: { schema, encoding: "JSON", firstRevisionId: v1.revisionId } } as TopicResource);
  const sub = makeSub(d.broker, topic);
  const etags = new Map([topic, sub, schema].map((r) => [r, d.broker.iam.set(r, { bindings: [ROLE] }).etag]));
  return { d, schema, v1, v2, topic, sub, etags };
}

describe("schemas and IAM policies survive a restart", () => {
  test("revisions, topic schema settings, publish validation and googclient_schema* attributes", async () => {
    const { d, schema, v1, v2, topic, sub } = fixture();
    const revisions = d.broker.schemas.listRevisions(schema).items.map((r) => [r.revisionId, r.definition, r.revisionCreateTime]);
    d.restart();
    expect(d.broker.schemas.listRevisions(schema).items.map((r) => [r.revisionId, r.definition, r.revisionCreateTime])).toEqual(revisions);
    expect(d.broker.schemas.get(schema).revisionId).toBe(v2.revisionId);
    expect(d.broker.topics.get(topic).schemaSettings).toMatchObject({ schema, firstRevisionId: v1.revisionId });
    expect(caught(() => d.broker.topics.publish(topic, [{ data: json({ nope: 1 }) }])).code).toBe("INVALID_ARGUMENT");
    d.broker.topics.publish(topic, [{ data: json({ name: "a" }) }]);
    const [got] = await pullNow(d.broker, sub);
    expect(got.message.attributes).toEqual({ googclient_schemaname: schema, googclient_schemaencoding: "JSON", googclient_schemarevisionid: v2.revisionId });
    // Still compatible-checked and counted after the restart: a commit follows v2.
    expect(caught(() => d.broker.schemas.commit(schema, { definition: JSON.stringify({ type: "record", name: "State", fields: [] }) })).code).toBe("INVALID_ARGUMENT");
    expect(d.broker.schemas.rollback(schema, v1.revisionId).definition).toBe(AVRO);
    d.restart();
    expect(d.broker.schemas.listRevisions(schema).items.length).toBe(3);
  });

  test("policies keep their bindings and etags; an etag from before the restart still writes", () => {
    const { d, topic, sub, schema, etags } = fixture();
    d.restart();
    for (const r of [topic, sub, schema]) expect(d.broker.iam.get(r)).toMatchObject({ version: 1, bindings: [ROLE], etag: etags.get(r) });
    const next = d.broker.iam.set(topic, { bindings: [], etag: etags.get(topic) });
    expect(caught(() => d.broker.iam.set(topic, { bindings: [ROLE], etag: etags.get(topic) })).code).toBe("ABORTED");
    d.restart();
    expect(d.broker.iam.get(topic)).toMatchObject({ bindings: [], etag: next.etag });
  });
});

describe("deletions are durable", () => {
  test("a deleted revision, a deleted schema (its topic reports _deleted-schema_) and dropped policies", () => {
    const { d, schema, v1, topic, sub } = fixture();
    d.broker.schemas.deleteRevision(`${schema}@${v1.revisionId}`);
    d.restart();
    expect(d.broker.schemas.listRevisions(schema).items.length).toBe(1);
    d.broker.schemas.delete(schema);
    d.broker.subscriptions.delete(sub);
    d.restart();
    expect(d.broker.schemas.has(schema)).toBe(false);
    expect((d.broker.topics.get(topic).schemaSettings as { schema: string }).schema).toBe("_deleted-schema_");
    expect(caught(() => d.broker.topics.publish(topic, [{ data: json({ name: "a" }) }])).code).toBe("FAILED_PRECONDITION");
    // Re-created under the same names, they start without a policy.
    d.broker.schemas.create(PARENT, schema.split("/").pop(), { type: "AVRO", definition: AVRO });
    makeSub(d.broker, topic, { name: sub });
    for (const r of [sub, schema]) expect(d.broker.iam.get(r).bindings).toEqual([]);
    expect(d.broker.iam.get(topic).bindings).toEqual([ROLE]);
  });

  test("reset forgets schemas and policies for good", () => {
    const { d, schema, topic } = fixture();
    d.broker.reset();
    d.restart();
    expect(d.broker.schemas.has(schema)).toBe(false);
    d.broker.topics.create({ name: topic, labels: {} });
    expect(d.broker.iam.get(topic).bindings).toEqual([]);
  });
});

test("a data dir of schema version 1 upgrades in place; its topics on schemas (not kept then) report _deleted-schema_", () => {
  const dir = tempDataDir();
  const topic = topicName();
  const db = new Database(join(dir, DB_FILE), { create: true });
  db.run("PRAGMA journal_mode = WAL");
  db.transaction(() => {
    db.run(MIGRATIONS[0]);
    db.run("PRAGMA user_version = 1");
    db.run(`PRAGMA application_id = ${APPLICATION_ID}`);
  })();
  const plain = topicName();
  for (const [name, settings] of [[topic, { schema: `${PARENT}/schemas/old` }], [plain, undefined]] as const) {
    db.query("INSERT INTO topics (name, config) VALUES (?, ?)").run(name, JSON.stringify({ name, labels: {}, schemaSettings: settings }));
  }
  db.close();

  let store = SqliteStore.open(dir, { checkpointWorker: false });
  let broker = new Broker({ clock: new ManualClock(), store });
  expect((broker.topics.get(topic).schemaSettings as { schema: string }).schema).toBe("_deleted-schema_");
  broker.topics.publish(plain, [{ data: bytes("x") }]);
  broker.schemas.create(PARENT, "fresh", { type: "AVRO", definition: AVRO });
  broker.iam.set(plain, { bindings: [ROLE] });
  store.close();

  store = SqliteStore.open(dir, { checkpointWorker: false });
  broker = new Broker({ clock: new ManualClock(), store });
  expect(broker.schemas.has(`${PARENT}/schemas/fresh`)).toBe(true);
  expect(broker.iam.get(plain).bindings).toEqual([ROLE]);
  store.close();
  const check = new Database(join(dir, DB_FILE), { readonly: true });
  expect(check.query("PRAGMA user_version").get()).toEqual({ user_version: SCHEMA_VERSION });
  check.close();
  expect(SCHEMA_VERSION).toBe(3);
});

test("a compiled Protocol Buffer schema (two files) survives a restart: its bytes, and the topic checking against it", () => {
  const d = durable();
  const id = uid("schema");
  const schema = `${PARENT}/schemas/${id}`;
  const set = protoc(SHOP_FILES, "shop/order.proto");
  d.broker.schemas.create(PARENT, id, { type: "PROTOCOL_BUFFER", compiledProtoSchema: { rootMessage: "shop.Order", compiledBytes: set } });
  const topic = topicName();
  d.broker.topics.create({ name: topic, labels: {}, schemaSettings: { schema, encoding: "JSON" } } as TopicResource);
  d.restart();
  const got = d.broker.schemas.get(schema).compiledProtoSchema!;
  expect(got.rootMessage).toBe("shop.Order");
  expect(Buffer.from(got.compiledBytes).equals(set)).toBe(true);
  expect(d.broker.topics.publish(topic, [{ data: json({ id: "o", total: { currency: "EUR", units: 1 } }) }]).length).toBe(1);
  expect(caught(() => d.broker.topics.publish(topic, [{ data: json({ id: "o", total: { cents: 1 } }) }])).message).toContain("cents");
});

/**
 * Message bodies in segment files beside the database (src/persistence/bodies.ts): what is held
 * comes back byte for byte after a restart; a segment nothing points into is removed; a body damaged
 * on disk leaves its message out (never half-read), the others intact; a data dir of schema version
 * 2 (bodies in their rows) upgrades in place and delivers what it held.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { DB_FILE } from "../../src/persistence/schema.ts";
import { SqliteStore } from "../../src/persistence/sqlite-store.ts";
import { ack, pullNow, texts, topicAndSub } from "../helpers/core.ts";
import { cleanupDataDirs, tempDataDir } from "../helpers/stores.ts";

afterAll(cleanupDataDirs);

const segments = (dir: string) => readdirSync(dir).filter((f) => f.startsWith("pubsub-emulator.body.")).sort();
const open = (dir: string, segmentBytes?: number) => {
  const store = SqliteStore.open(dir, { checkpointWorker: false, segmentBytes });
  return { store, broker: new Broker({ clock: new ManualClock(), store }) };
};
const body = (text: string, n = 1000) => new TextEncoder().encode(text.padEnd(n, "."));

test("bodies round-trip across restarts; a segment nothing points into is removed", async () => {
  const dir = tempDataDir();
  let { store, broker } = open(dir, 8 * 1024);
  const { topic, sub } = topicAndSub(broker);
  // 30 bodies of 1,000 bytes across segments of 8 KiB; empty data needs no body.
  for (let i = 0; i < 30; i++) broker.topics.publish(topic, [{ data: body(`m${i}`) }]);
  broker.topics.publish(topic, [{ data: new Uint8Array(0), attributes: { empty: "yes" } }]);
  expect(segments(dir).length).toBeGreaterThan(2);
  const first = await pullNow(broker, sub, 10);
  ack(broker, sub, first);
  store.close();

  ({ store, broker } = open(dir, 8 * 1024));
  const rest = await pullNow(broker, sub, 100);
  expect(rest.map((d) => new TextDecoder().decode(d.message.data).replace(/\.+$/, ""))).toEqual([...Array.from({ length: 20 }, (_, i) => `m${i + 10}`), ""]);
  expect(rest.at(-1)!.message.attributes).toEqual({ empty: "yes" });
  ack(broker, sub, rest);
  // Everything acked: after the next commit only the current (new) segment is left.
  broker.topics.publish(topic, [{ data: body("last") }]);
  expect(segments(dir).length).toBe(1);
  store.close();

  ({ store, broker } = open(dir, 8 * 1024));
  expect(texts(await pullNow(broker, sub, 10)).map((t) => t.replace(/\.+$/, ""))).toEqual(["last"]);
  store.close();
});

test("a transaction storing more than the staging bound writes as it goes; every body comes back", async () => {
  const dir = tempDataDir();
  let { store, broker } = open(dir);
  const { topic, sub } = topicAndSub(broker);
  // 9 MiB in one publish (under its 10 MB limit): past the 8 MiB staged before a write.
  broker.topics.publish(topic, Array.from({ length: 9 }, (_, i) => ({ data: new Uint8Array(1024 * 1024).fill(65 + i) })));
  store.close();
  ({ store, broker } = open(dir));
  const got = await pullNow(broker, sub, 100);
  expect(got.map((d) => [d.message.data.length, d.message.data[0], d.message.data[1024 * 1024 - 1]])).toEqual(Array.from({ length: 9 }, (_, i) => [1024 * 1024, 65 + i, 65 + i]));
  store.close();
});

test("a body damaged on disk leaves its message out at start, never half-read; the others come back", async () => {
  const dir = tempDataDir();
  let { store, broker } = open(dir);
  const { topic, sub } = topicAndSub(broker);
  broker.topics.publish(topic, ["a", "b", "c"].map((t) => ({ data: body(t) })));
  store.close();
  const [seg] = segments(dir);
  const file = readFileSync(join(dir, seg));
  file[8 + 1008 + 8 + 500] ^= 0xff; // inside b's data (records: 8-byte header + 1,000 bytes)
  writeFileSync(join(dir, seg), file);

  ({ store, broker } = open(dir));
  expect(store.opened.dangling).toBe(2); // b's row and its entry
  expect(texts(await pullNow(broker, sub, 10)).map((t) => t.replace(/\.+$/, ""))).toEqual(["a", "c"]);
  store.close();

  // A segment cut short: what lay past the cut is left out the same way.
  truncateSync(join(dir, seg), 8 + 1000 + 10);
  ({ store, broker } = open(dir));
  expect(texts(await pullNow(broker, sub, 10)).map((t) => t.replace(/\.+$/, ""))).toEqual(["a"]);
  store.close();
});

test("a body segment cut short under the running store: the next write is refused UNAVAILABLE naming it", () => {
  const dir = tempDataDir();
  const { store, broker } = open(dir);
  const { topic } = topicAndSub(broker);
  broker.topics.publish(topic, [{ data: body("x") }]);
  const [seg] = segments(dir);
  truncateSync(join(dir, seg), 0);
  expect(() => broker.topics.publish(topic, [{ data: body("y") }])).toThrow(/message body file .*was cut short/);
  store.close();
});

test("a data dir of schema version 2 (bodies in their rows) upgrades in place and delivers what it held", async () => {
  const dir = tempDataDir();
  let { store, broker } = open(dir);
  const { topic, sub } = topicAndSub(broker);
  store.close();
  // Back to version 2's table, with a message held the way version 2 kept it: data in its row.
  const db = new Database(join(dir, DB_FILE));
  db.transaction(() => {
    db.run("ALTER TABLE messages DROP COLUMN body");
    db.run("ALTER TABLE messages DROP COLUMN body_at");
    db.run("PRAGMA user_version = 2");
    db.query("INSERT INTO messages (seq, data, attributes, ordering_key, publish_time, size, log_topic) VALUES (7, ?, NULL, '', ?, 3, NULL)").run(new TextEncoder().encode("old"), Date.now());
    db.run("INSERT INTO entries (sub, seq, attempts, acked) SELECT id, 7, 0, 0 FROM subscriptions");
  })();
  db.close();

  ({ store, broker } = open(dir));
  broker.topics.publish(topic, [{ data: body("new") }]);
  store.close();
  ({ store, broker } = open(dir));
  const got = await pullNow(broker, sub, 10);
  expect(texts(got).map((t) => t.replace(/\.+$/, ""))).toEqual(["old", "new"]);
  expect(got[0].message.id).toBe("7");
  store.close();
});

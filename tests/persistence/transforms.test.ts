/**
 * Message transforms on a SQLite data dir: after a restart the engine is loaded for the stored
 * transforms (lazily, as the emulator does) and they run again; ids given to filtered messages
 * are never reused by stored ones after a restart.
 */
import { afterAll, expect, test } from "bun:test";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { TopicResource } from "../../src/core/resources.ts";
import type { SqliteStore } from "../../src/persistence/sqlite-store.ts";
import { loadQuickJsEngine } from "../../src/transforms/quickjs-engine.ts";
import { nodeCompression } from "../../src/transforms/compression-codec.ts";
import { inflateSync } from "node:zlib";
import { makeSub, msg, pullNow, texts, topicName } from "../helpers/core.ts";
import { cleanupDataDirs, sqliteKind } from "../helpers/stores.ts";

afterAll(cleanupDataDirs);

const UDF = (name: string, body: string) => ({ javascriptUdf: { functionName: name, code: `function ${name}(message) { ${body} }` } });

test("transforms survive a restart and run after it; filtered ids stay unique", async () => {
  let clock = new ManualClock();
  let store = sqliteKind.create() as SqliteStore;
  let broker = new Broker({ clock, store, transforms: loadQuickJsEngine });
  await broker.ensureTransformEngine();
  const topic = topicName();
  broker.topics.create({ name: topic, labels: {}, messageTransforms: [UDF("drop", "return message.attributes.skip ? null : message;")] } as TopicResource);
  const sub = makeSub(broker, topic, { messageTransforms: [UDF("upper", "message.data = message.data.toUpperCase(); return message;")] });
  const before = broker.topics.publish(topic, [msg("a"), msg("b", { attributes: { skip: "1" } })]);

  store = sqliteKind.reopen(store) as SqliteStore;
  clock = new ManualClock(clock.now());
  broker = new Broker({ clock, store, transforms: loadQuickJsEngine });
  expect(broker.needsTransformEngine()).toBe(true);
  await broker.ensureTransformEngine();
  expect(broker.needsTransformEngine()).toBe(false);
  const after = broker.topics.publish(topic, [msg("c"), msg("d", { attributes: { skip: "1" } })]);
  expect(new Set([...before, ...after]).size).toBe(4);
  expect(texts(await pullNow(broker, sub, 10)).sort()).toEqual(["A", "C"]);
});

test("a compression transform (no JavaScript) survives a restart: stored as given, running after it", async () => {
  const COMPRESSION = (mode: string) => ({ compression: { compressionAlgorithm: "ZLIB", compressionMode: mode } });
  let clock = new ManualClock();
  let store = sqliteKind.create() as SqliteStore;
  let broker = new Broker({ clock, store, transforms: loadQuickJsEngine, compression: nodeCompression });
  const topic = topicName();
  broker.topics.create({ name: topic, labels: {}, messageTransforms: [COMPRESSION("COMPRESS")] } as TopicResource);
  const sub = makeSub(broker, topic, { messageTransforms: [COMPRESSION("DECOMPRESS")] });
  broker.topics.publish(topic, [msg("before")]);

  store = sqliteKind.reopen(store) as SqliteStore;
  clock = new ManualClock(clock.now());
  broker = new Broker({ clock, store, transforms: loadQuickJsEngine, compression: nodeCompression });
  expect([...broker.topicViews()].find((t) => t.name === topic)?.config.messageTransforms).toEqual([COMPRESSION("COMPRESS")]);
  await broker.ensureTransformEngine();
  broker.topics.publish(topic, [msg("after")]);
  const plain = makeSub(broker, topic);
  broker.topics.publish(topic, [msg("plain")]);
  expect(texts(await pullNow(broker, sub, 10)).sort()).toEqual(["after", "before", "plain"]);
  const [packed] = await pullNow(broker, plain, 10);
  expect(inflateSync(packed.message.data).toString()).toBe("plain");
});

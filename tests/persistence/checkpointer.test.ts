/**
 * Checkpoints run off the event loop: the worker folds the WAL into the database after commits,
 * a clean close leaves no WAL behind, and a worker that cannot run hands checkpoints back to
 * SQLite on the event loop.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { setLogLevel } from "../../src/runtime/log.ts";
import { Checkpointer } from "../../src/persistence/checkpointer.ts";
import { DB_FILE } from "../../src/persistence/schema.ts";
import { SqliteStore } from "../../src/persistence/sqlite-store.ts";
import { makeSub, makeTopic } from "../helpers/core.ts";
import { waitFor } from "../helpers/emulator.ts";
import { cleanupDataDirs, tempDataDir } from "../helpers/stores.ts";

afterAll(cleanupDataDirs);

test("the worker checkpoints what the event loop commits; a clean close leaves no WAL", async () => {
  const dir = tempDataDir();
  const file = join(dir, DB_FILE);
  const store = SqliteStore.open(dir);
  const broker = new Broker({ clock: new ManualClock(), store });
  const topic = makeTopic(broker);
  makeSub(broker, topic);
  const before = statSync(file).size;
  // Attributes stay in the rows (bodies go to their segment files): 1 KB of them each.
  const attributes = { pad: "x".repeat(1000) };
  for (let i = 0; i < 20; i++) broker.topics.publish(topic, Array.from({ length: 100 }, () => ({ data: new Uint8Array(1000).fill(i), attributes })));
  // The event loop never checkpoints (wal_autocheckpoint = 0): only the worker grows the file.
  await waitFor(() => statSync(file).size > before + 1_000_000, 10_000, "the worker's checkpoint");
  store.close();
  expect(existsSync(`${file}-wal`)).toBe(false);
  const again = SqliteStore.open(dir);
  expect(again.heldMessages).toBe(2000);
  again.close();
});

test("a worker that cannot run hands checkpoints back to the event loop", async () => {
  setLogLevel("silent");
  const dir = tempDataDir();
  const db = new Database(join(dir, "x.sqlite"), { create: true });
  db.run("PRAGMA wal_autocheckpoint = 0");
  const autocheckpoint = () => (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
  const c = new Checkpointer(join(dir, "missing", "nowhere.sqlite"), db);
  c.dirty();
  await waitFor(() => autocheckpoint() === 1000, 10_000, "the fallback to inline checkpoints");
  c.close();
  db.close();
});

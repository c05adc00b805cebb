/**
 * Opening --data-dir: created when missing; refused with a clear message, and left byte for byte
 * as it was, when it is not ours, damaged, newer, in use or not a directory; upgraded when older.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { DataDirError } from "../../src/persistence/data-dir.ts";
import { APPLICATION_ID, DB_FILE, SCHEMA_VERSION } from "../../src/persistence/schema.ts";
import { SqliteStore } from "../../src/persistence/sqlite-store.ts";
import { makeSub, makeTopic } from "../helpers/core.ts";
import { cleanupDataDirs, tempDataDir } from "../helpers/stores.ts";
import { runMain } from "../helpers/server-process.ts";

afterAll(cleanupDataDirs);

/** Every file of the dir with its bytes, to show a refusal changed nothing. */
const snapshotDir = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f)).toString("base64")]));

function refused(dir: string): DataDirError {
  const before = snapshotDir(dir);
  let error: unknown;
  try {
    SqliteStore.open(dir).close();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DataDirError);
  expect(snapshotDir(dir)).toEqual(before);
  return error as DataDirError;
}

describe("a data dir it can use", () => {
  test("a missing directory is created with a versioned database", () => {
    const dir = join(tempDataDir(), "nested", "data");
    const store = SqliteStore.open(dir);
    store.close();
    const db = new Database(join(dir, DB_FILE), { readonly: true });
    expect(db.query("PRAGMA user_version").get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(db.query("PRAGMA application_id").get()).toEqual({ application_id: APPLICATION_ID });
    db.close();
  });

  test("files beside ours (gcloud's env.yaml) are left alone; an empty database file counts as new", () => {
    const dir = tempDataDir();
    writeFileSync(join(dir, "env.yaml"), "PUBSUB_EMULATOR_HOST: localhost:8085\n");
    writeFileSync(join(dir, DB_FILE), "");
    SqliteStore.open(dir).close();
    expect(readFileSync(join(dir, "env.yaml"), "utf8")).toBe("PUBSUB_EMULATOR_HOST: localhost:8085\n");
  });
});

describe("a data dir it refuses, touching nothing", () => {
  test("a file that is not a database", () => {
    const dir = tempDataDir();
    writeFileSync(join(dir, DB_FILE), "this is not SQLite, just some text that is long enough to have a header".repeat(20));
    expect(refused(dir).message).toContain("is not a readable pubsub-emulator database");
  });

  test("a damaged database (header intact, pages overwritten)", () => {
    const dir = tempDataDir();
    const store = SqliteStore.open(dir);
    store.close();
    const file = join(dir, DB_FILE);
    const bytes = readFileSync(file);
    bytes.fill(0xa5, 100);
    writeFileSync(file, bytes);
    expect(refused(dir).message).toMatch(/not a readable pubsub-emulator database|malformed|damaged/);
  });

  test("a database damaged deep inside (found while reading the messages back)", () => {
    const dir = tempDataDir();
    const store = SqliteStore.open(dir);
    const broker = new Broker({ clock: new ManualClock(), store });
    const topic = makeTopic(broker);
    makeSub(broker, topic);
    for (let i = 0; i < 20; i++) broker.topics.publish(topic, Array.from({ length: 100 }, () => ({ data: new Uint8Array(500).fill(i) })));
    store.close();
    const file = join(dir, DB_FILE);
    const bytes = readFileSync(file);
    bytes.fill(0xa5, bytes.length - 3 * 4096, bytes.length - 2 * 4096);
    writeFileSync(file, bytes);
    expect(refused(dir).message).toContain("database disk image is malformed");
  });

  test("another program's SQLite database", () => {
    const dir = tempDataDir();
    const db = new Database(join(dir, DB_FILE), { create: true });
    db.run("CREATE TABLE notes (body TEXT)");
    db.close();
    expect(refused(dir).message).toContain("of another program");
  });

  test("a database written by a newer version", () => {
    const dir = tempDataDir();
    SqliteStore.open(dir).close();
    const db = new Database(join(dir, DB_FILE));
    db.run(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(refused(dir).message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
  });

  test("a data dir another emulator has open", () => {
    const dir = tempDataDir();
    const first = SqliteStore.open(dir);
    try {
      expect(() => SqliteStore.open(dir)).toThrow(/in use by another process/);
    } finally {
      first.close();
    }
    SqliteStore.open(dir).close();
  });

  test("a path that is a file", () => {
    const file = join(tempDataDir(), "plain-file");
    writeFileSync(file, "x");
    expect(() => SqliteStore.open(file)).toThrow(/is not a directory/);
    expect(readFileSync(file, "utf8")).toBe("x");
  });

  test("the emulator stops before its ready line with the message and exit code 1", async () => {
    const dir = tempDataDir();
    writeFileSync(join(dir, DB_FILE), "garbage".repeat(100));
    const { code, stdout: out, stderr: err } = await runMain(["--host-port", "127.0.0.1:0", "--data-dir", dir], { env: { PUBSUB_LOG_LEVEL: "info" }, ms: 15_000 });
    expect(code).toBe(1);
    expect(out).not.toContain("Server started");
    expect(err).toContain(`${DB_FILE} is not a readable pubsub-emulator database`);
    expect(existsSync(join(dir, `${DB_FILE}-wal`))).toBe(false);
  });
});

/**
 * One suite, two stores: the core test files that build brokers run again here, each broker on a
 * fresh SQLite data dir (a `?sqlite` import is a second instance of the file's module, so its
 * tests register again under this file while setup() hands out SQLite stores).
 */
import { afterAll, expect, test } from "bun:test";
import { cleanupDataDirs, memoryKind, openedDataDirs, sqliteKind, useStoreKind } from "../helpers/stores.ts";

const FILES = [
  "delivery", "exactly-once", "expiration", "ordering", "retention", "retry-dead-letter",
  "seek", "snapshots", "store", "stream-session", "subscriptions", "topics",
];

// Tests run after the whole file is loaded: the kind stays SQLite until they are done.
useStoreKind(sqliteKind);
for (const f of FILES) await import(`../core/${f}.test.ts?sqlite`);

test("the suite above ran on SQLite stores", () => {
  expect(openedDataDirs()).toBeGreaterThan(150);
});

afterAll(() => {
  useStoreKind(memoryKind);
  cleanupDataDirs();
});

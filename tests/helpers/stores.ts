/**
 * One core suite, two stores: the store every core test's broker gets. In memory by default;
 * tests/persistence/core-on-sqlite.test.ts switches to a fresh SQLite data dir per broker and
 * re-runs the core test files. Store-contract tests also read back what a store keeps (rows) and
 * rebuild a broker from it (reopen: what a restart sees).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HeldStore } from "../../src/core/store/held-memory.ts";
import type { Store } from "../../src/core/store/store.ts";
import { SqliteStore } from "../../src/persistence/sqlite-store.ts";
import { RowStore } from "./row-store.ts";

/** [seq, attempts, acked] of every entry a store keeps for a subscription, in publish order. */
export type RowTuple = [number, number, boolean];

export interface StoreKind {
  readonly name: string;
  /** A store for a new broker; undefined leaves the broker's default (in memory). */
  forBroker(): HeldStore | undefined;
  /** A store that keeps rows the way a durable one does. */
  create(): HeldStore;
  /** The store a restart sees: the same rows, read again. */
  reopen(store: Store): HeldStore;
  rows(store: Store, sub: string): RowTuple[];
}

export const memoryKind: StoreKind = {
  name: "memory",
  forBroker: () => undefined,
  create: () => new RowStore(),
  reopen: (store) => store as RowStore,
  rows: (store, sub) =>
    [...((store as RowStore).rows.get(sub)?.values() ?? [])]
      .sort((a, b) => a.msg.seq - b.msg.seq)
      .map((r): RowTuple => [r.msg.seq, r.attempts, r.acked]),
};

const dirs: string[] = [];
const stores: SqliteStore[] = [];

/** A fresh data dir under the system temp dir; removed by cleanupDataDirs(). */
export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "pse-data-"));
  dirs.push(dir);
  return dir;
}

/** Checkpoints inline: a worker thread per store would make the hundreds of test stores slow. */
function openSqlite(dir: string): SqliteStore {
  const store = SqliteStore.open(dir, { checkpointWorker: false });
  stores.push(store);
  return store;
}

export const sqliteKind: StoreKind = {
  name: "sqlite",
  forBroker: () => openSqlite(tempDataDir()),
  create: () => openSqlite(tempDataDir()),
  reopen(store) {
    const s = store as SqliteStore;
    s.close();
    return openSqlite(s.dir);
  },
  rows: (store, sub) => (store as SqliteStore).storedEntries(sub).map((e): RowTuple => [e.seq, e.attempts, e.acked]),
};

let current: StoreKind = memoryKind;

export const storeKind = (): StoreKind => current;

export function useStoreKind(kind: StoreKind): void {
  current = kind;
}

/** How many data dirs the tests made so far. */
export const openedDataDirs = (): number => dirs.length;

/** Closes every SQLite store the tests opened and removes their data dirs. */
export function cleanupDataDirs(): void {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

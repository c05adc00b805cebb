/**
 * Opening --data-dir: the directory is created when missing and locked for this process (a lock
 * file beside the database that a second emulator cannot lock too); an existing database is first
 * inspected read-only, so a data dir this emulator cannot use (not SQLite, corrupt, another
 * program's database, a newer schema, another emulator running on it) stops the start with a
 * clear message before anything is written. The database is then opened in WAL mode.
 */
import { Database } from "bun:sqlite";
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { APPLICATION_ID, DB_FILE, LOCK_FILE, MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";

/** The data dir cannot be used; the message says why and what to do. Nothing was changed. */
export class DataDirError extends Error {
  override name = "DataDirError";
}

const pragma = (db: Database, name: string): number => Object.values(db.query(`PRAGMA ${name}`).get() as object)[0] as number;

export interface OpenedDataDir {
  db: Database;
  /** Holds the lock on the data dir until closed. */
  lock: Database;
  file: string;
  /** The data dir, absolute. */
  dir: string;
}

/** Opens the data dir's database, migrated to SCHEMA_VERSION, for this process alone. */
export function openDataDir(dir: string): OpenedDataDir {
  const abs = resolve(dir);
  if (existsSync(abs)) {
    if (!statSync(abs).isDirectory()) throw new DataDirError(`--data-dir ${abs} is not a directory.`);
  } else mkdirSync(abs, { recursive: true });
  const file = join(abs, DB_FILE);
  const lockFile = join(abs, LOCK_FILE);
  const hadLock = existsSync(lockFile);
  const lock = takeLock(lockFile, file);
  let db: Database | undefined;
  try {
    if (existsSync(file)) inspect(file);
    db = new Database(file, { create: true });
    db.run("PRAGMA journal_mode = WAL");
    // NORMAL in WAL mode: a commit is written to the WAL (survives a process kill) and synced at
    // each checkpoint (docs/persistence.md).
    db.run("PRAGMA synchronous = NORMAL");
    // The checkpoint worker's connection may hold a lock for a moment (opening, closing): a
    // commit then waits instead of failing.
    db.run("PRAGMA busy_timeout = 10000");
    db.run("PRAGMA journal_size_limit = 67108864");
    migrate(db);
    return { db, lock, file, dir: abs };
  } catch (e) {
    db?.close();
    lock.close();
    if (!hadLock) rmSync(lockFile, { force: true });
    throw explain(file, e);
  }
}

/**
 * An exclusive lock on a small SQLite file beside the database, held while the store is open:
 * released by the OS when the process dies, so a kill -9 never leaves a stale lock behind.
 */
function takeLock(lockFile: string, file: string): Database {
  const lock = new Database(lockFile, { create: true });
  try {
    lock.run("PRAGMA locking_mode = EXCLUSIVE");
    lock.run("PRAGMA journal_mode = MEMORY"); // no -journal file beside it while held
    lock.run("BEGIN EXCLUSIVE");
    lock.run("COMMIT");
    return lock;
  } catch (e) {
    lock.close();
    throw explain(file, e);
  }
}

/**
 * Read-only checks that refuse a database before this process writes to it. A read-only
 * connection to a WAL database still creates the -wal and -shm files beside it; the ones it
 * created (empty WAL, index) are removed again, so a refused data dir is left as it was.
 */
function inspect(file: string): void {
  const created = [`${file}-wal`, `${file}-shm`].filter((f) => !existsSync(f));
  let db: Database | undefined;
  try {
    db = new Database(file, { readonly: true });
    const app = pragma(db, "application_id");
    const version = pragma(db, "user_version");
    const objects = (db.query("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n;
    if (app === 0 && version === 0 && objects === 0) return; // an empty database: a new data dir
    if (app !== APPLICATION_ID) {
      throw new DataDirError(`${file} is an SQLite database of another program (application_id ${app}), not a pubsub-emulator data dir. Choose another --data-dir; nothing was changed.`);
    }
    if (version > SCHEMA_VERSION) {
      throw new DataDirError(`${file} was written by a newer pubsub-emulator (schema version ${version}; this one reads up to ${SCHEMA_VERSION}). Run the newer version or choose another --data-dir; nothing was changed.`);
    }
    if (version < 1) throw new DataDirError(`${file} has no schema version; it is damaged. Nothing was changed.`);
  } catch (e) {
    throw explain(file, e);
  } finally {
    db?.close();
    for (const f of created) if (existsSync(f) && (f.endsWith("-shm") || statSync(f).size === 0)) rmSync(f);
  }
}

function migrate(db: Database): void {
  const from = pragma(db, "user_version");
  if (from === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let v = from; v < SCHEMA_VERSION; v++) db.run(MIGRATIONS[v]);
    db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.run(`PRAGMA application_id = ${APPLICATION_ID}`);
  }).immediate();
}

/** An SQLite failure while opening or reading, as a DataDirError that names the file and the cause. */
export function explain(file: string, e: unknown): DataDirError {
  if (e instanceof DataDirError) return e;
  const code = String((e as { code?: unknown }).code ?? "");
  const cause = (e as Error).message ?? String(e);
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_IOERR_LOCK") || code.startsWith("SQLITE_LOCKED")) {
    return new DataDirError(`${file} is in use by another process (another emulator on the same --data-dir?): ${cause}.`);
  }
  if (code.startsWith("SQLITE_NOTADB") || code.startsWith("SQLITE_CORRUPT")) {
    return new DataDirError(`${file} is not a readable pubsub-emulator database (${cause}). Move it away or choose another --data-dir; nothing was changed.`);
  }
  return new DataDirError(`cannot open ${file}: ${cause}${code ? ` (${code})` : ""}${unwritable(dirname(file))}.`);
}

/** Why a directory cannot be written, when that is why SQLite could not open a file in it. */
function unwritable(dir: string): string {
  try {
    accessSync(dir, constants.W_OK);
    return "";
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "EROFS") return `: ${dir} is on a read-only file system (the emulator needs to write its data dir)`;
    if (code === "EACCES" || code === "EPERM") return `: ${dir} is not writable by this user (uid ${process.getuid?.() ?? "?"})`;
    return "";
  }
}

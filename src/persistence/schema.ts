/**
 * The data dir's SQLite schema, versioned with PRAGMA user_version: MIGRATIONS[i] takes a
 * database from version i to i + 1, so a data dir written by an older emulator is upgraded in one
 * transaction and one written by a newer emulator is refused.
 */

/** "PSEM" in PRAGMA application_id: marks a database as this emulator's. */
export const APPLICATION_ID = 0x5053454d;

/** The file inside --data-dir (beside it SQLite keeps -wal and -shm). */
export const DB_FILE = "pubsub-emulator.sqlite";
/** Locked by the running emulator, so a second one on the same data dir is refused. */
export const LOCK_FILE = "pubsub-emulator.lock";

export const MIGRATIONS: readonly string[] = [
  // 1: resources, the message log and each subscription's entries.
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
   INSERT INTO meta (key, value) VALUES ('next_seq', 1), ('epoch', 0);
   -- config is the core's resource as JSON; ids are internal, so a re-created name is a new row.
   CREATE TABLE topics (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, config TEXT NOT NULL);
   CREATE TABLE subscriptions (
     id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, config TEXT NOT NULL,
     created_seq INTEGER NOT NULL);
   -- backlog: the seqs of the messages it keeps, as float64s (seqs stay below 2^53).
   CREATE TABLE snapshots (
     name TEXT PRIMARY KEY, topic TEXT NOT NULL, expire_time INTEGER NOT NULL, labels TEXT NOT NULL,
     from_seq INTEGER NOT NULL, backlog BLOB NOT NULL) WITHOUT ROWID;
   -- One row per message something holds; log_topic is set while its topic's log keeps it.
   CREATE TABLE messages (
     seq INTEGER PRIMARY KEY, data BLOB NOT NULL, attributes TEXT, ordering_key TEXT NOT NULL,
     publish_time INTEGER NOT NULL, size INTEGER NOT NULL, log_topic INTEGER);
   CREATE TABLE entries (
     sub INTEGER NOT NULL, seq INTEGER NOT NULL, attempts INTEGER NOT NULL, acked INTEGER NOT NULL,
     PRIMARY KEY (sub, seq)) WITHOUT ROWID;`,
  // 2: schemas (each with its revision list as JSON, oldest first) and IAM policies.
  `CREATE TABLE schemas (name TEXT PRIMARY KEY, revisions TEXT NOT NULL) WITHOUT ROWID;
   -- policy: version, bindings and audit configs as JSON; the etag beside it as bytes.
   CREATE TABLE policies (resource TEXT PRIMARY KEY, policy TEXT NOT NULL, etag BLOB NOT NULL) WITHOUT ROWID;`,
  // 3: a message's data in a body segment file (bodies.ts) when body is set, data then empty.
  `ALTER TABLE messages ADD COLUMN body INTEGER;
   ALTER TABLE messages ADD COLUMN body_at INTEGER;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

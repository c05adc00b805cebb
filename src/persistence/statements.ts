/** Every statement the store runs while serving, prepared once per connection. */
import type { Database, Statement } from "bun:sqlite";

const SQL = {
  // Every transaction here writes: take the write lock at BEGIN rather than on the first write.
  begin: "BEGIN IMMEDIATE",
  commit: "COMMIT",
  rollback: "ROLLBACK",
  setMeta: "UPDATE meta SET value = ? WHERE key = ?",
  insTopic: "INSERT INTO topics (name, config) VALUES (?, ?)",
  setTopic: "UPDATE topics SET config = ? WHERE id = ?",
  delTopic: "DELETE FROM topics WHERE id = ?",
  insSub: "INSERT INTO subscriptions (name, config, created_seq) VALUES (?, ?, ?)",
  setSub: "UPDATE subscriptions SET config = ? WHERE id = ?",
  delSub: "DELETE FROM subscriptions WHERE id = ?",
  delSubEntries: "DELETE FROM entries WHERE sub = ?",
  insSnapshot: "INSERT INTO snapshots (name, topic, expire_time, labels, from_seq, backlog) VALUES (?, ?, ?, ?, ?, ?)",
  setSnapshot: "UPDATE snapshots SET topic = ?, expire_time = ?, labels = ? WHERE name = ?",
  delSnapshot: "DELETE FROM snapshots WHERE name = ?",
  putSchema: "INSERT INTO schemas (name, revisions) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET revisions = excluded.revisions",
  delSchema: "DELETE FROM schemas WHERE name = ?",
  putPolicy: "INSERT INTO policies (resource, policy, etag) VALUES (?, ?, ?) ON CONFLICT (resource) DO UPDATE SET policy = excluded.policy, etag = excluded.etag",
  delPolicy: "DELETE FROM policies WHERE resource = ?",
  insMsg: "INSERT INTO messages (seq, data, attributes, ordering_key, publish_time, size, log_topic, body, body_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  delMsg: "DELETE FROM messages WHERE seq = ?",
  unlogMsg: "UPDATE messages SET log_topic = NULL WHERE seq = ?",
  unlogTopic: "UPDATE messages SET log_topic = NULL WHERE log_topic = ?",
  insEntry: "INSERT INTO entries (sub, seq, attempts, acked) VALUES (?, ?, 0, 0)",
  setAttempts: "UPDATE entries SET attempts = ? WHERE sub = ? AND seq = ?",
  setAcked: "UPDATE entries SET acked = ? WHERE sub = ? AND seq = ?",
  delEntry: "DELETE FROM entries WHERE sub = ? AND seq = ?",
} as const;

export type Statements = { [K in keyof typeof SQL]: Statement };

export const prepare = (db: Database): Statements =>
  Object.fromEntries(Object.entries(SQL).map(([k, sql]) => [k, db.prepare(sql)])) as Statements;

/** Stand-ins that write nothing, for a closed store. */
export function noStatements(): Statements {
  const none = { run: () => ({ changes: 0, lastInsertRowid: 0 }) } as unknown as Statement;
  return Object.fromEntries(Object.keys(SQL).map((k) => [k, none])) as Statements;
}

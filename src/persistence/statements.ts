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
  setAcked: "UPDATE entries SET acked = ? WHERE sub = ? AND seq = ?",
} as const;

export type Statements = { [K in keyof typeof SQL]: Statement };

export const prepare = (db: Database): Statements =>
  Object.fromEntries(Object.entries(SQL).map(([k, sql]) => [k, db.prepare(sql)])) as Statements;

/** Stand-ins that write nothing, for a closed store. */
export function noStatements(): Statements {
  const none = { run: () => ({ changes: 0, lastInsertRowid: 0 }) } as unknown as Statement;
  return Object.fromEntries(Object.keys(SQL).map((k) => [k, none])) as Statements;
}

/**
 * One statement over many seqs: 64, then 8, then 1 of them bound at once after `keys` leading values
 * (a subscription id…). A statement's run costs about what its row does, so a 1,000-message ack is
 * 20 runs instead of 1,000.
 */
export class Wide {
  private tiers: { width: number; st: Statement; args: number[] }[];

  constructor(db: Database, sql: (seqs: string[]) => string, private readonly keys: number) {
    const at = (n: number) => Array.from({ length: n }, (_, i) => `?${keys + i + 1}`);
    this.tiers = [64, 8, 1].map((width) => ({ width, st: db.prepare(sql(at(width))), args: new Array<number>(keys + width) }));
  }

  run(key: readonly number[], seqs: ArrayLike<number>): void {
    const keys = this.keys;
    const n = seqs.length;
    let i = 0;
    for (const { width, st, args } of this.tiers) {
      if (n - i < width) continue;
      for (let k = 0; k < keys; k++) args[k] = key[k];
      for (; i + width <= n; i += width) {
        for (let j = 0; j < width; j++) args[keys + j] = seqs[i + j];
        st.run(...args);
      }
    }
  }

  finalize(): void {
    for (const t of this.tiers) t.st.finalize();
  }
}

/** The Wide statements the store runs per message. */
export const prepareWide = (db: Database) => ({
  insEntries: new Wide(db, (s) => `INSERT INTO entries (sub, seq, attempts, acked) VALUES ${s.map((p) => `(?1, ${p}, 0, 0)`).join(", ")}`, 1),
  delEntries: new Wide(db, (s) => `DELETE FROM entries WHERE sub = ?1 AND seq IN (${s.join(", ")})`, 1),
  setAttempts: new Wide(db, (s) => `UPDATE entries SET attempts = ?1 WHERE sub = ?2 AND seq IN (${s.join(", ")})`, 2),
  delMsgs: new Wide(db, (s) => `DELETE FROM messages WHERE seq IN (${s.join(", ")})`, 0),
});
export type WideStatements = ReturnType<typeof prepareWide>;

/** Stand-ins that write nothing, for a closed store. */
export function noWide(): WideStatements {
  const none = { run: () => {}, finalize: () => {} } as unknown as Wide;
  return { insEntries: none, delEntries: none, setAttempts: none, delMsgs: none };
}


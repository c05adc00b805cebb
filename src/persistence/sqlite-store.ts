/**
 * The durable store (--data-dir): it holds an in-memory store (the messages' objects, the logs,
 * the holder counts and so the held-memory port) and writes every change through to SQLite. Every core call that changes state is one transaction, committed before the call
 * returns, so an RPC never answers before its change is in the WAL: Publish's ids and a returned
 * Acknowledge survive a kill of the process. A message row exists while something holds it.
 */
import type { Database } from "bun:sqlite";
import type { Delivery, MessageInput, StoredMessage } from "../core/message.ts";
import type { SubscriptionResource, TopicResource } from "../core/resources.ts";
import { HeldMessage, MemoryStore } from "../core/store/memory-store.ts";
import type { Policy } from "../core/iam.ts";
import type { Clock } from "../core/clock.ts";
import type { HeldMemory } from "../core/store/held-memory.ts";
import type { EntryState, SnapshotRecord, Store, StoreContents, StoredRevision } from "../core/store/store.ts";
import { Bodies, SEGMENT_BYTES } from "./bodies.ts";
import { Checkpointer } from "./checkpointer.ts";
import { DiskFaults } from "./disk-faults.ts";
import { explain, openDataDir, type OpenedDataDir } from "./data-dir.ts";
import { load, packSeqs } from "./load.ts";
import { noStatements, noWide, prepare, prepareWide, type Statements, type WideStatements } from "./statements.ts";


/**
 * Seqs are reserved in blocks, so a publish does not rewrite the counter's page each time; after a
 * restart ids go on from the end of the block (ids only ever grow; gaps are fine).
 */
const SEQ_BLOCK = 100_000;

const EMPTY = new Uint8Array(0);

const isEmpty = (o: Readonly<Record<string, string>>) => {
  for (const _ in o) return false;
  return true;
};

export class SqliteStore implements Store, HeldMemory {
  /** The data dir, and the database file in it. */
  readonly dir: string;
  readonly file: string;
  /** The messages in memory, their logs, holder counts and ids: every read is answered from it. */
  private mem: MemoryStore;
  private db: Database;
  private lock: Database;
  private checkpointer: Checkpointer | null = null;
  private faults: DiskFaults;
  private bodies: Bodies;
  /** Messages the open transaction gave a body segment, each with the one before. */
  private bodyUndo: (HeldMessage | number)[] = [];
  private q: Statements;
  private w: WideStatements;
  private inTransaction = false;
  /** The stored next_seq: no id at or above it was handed out, so a restart starts there. */
  private reservedSeq = 1;
  private closed = false;
  private topicIds: Map<string, number>;
  private subIds: Map<string, number>;
  private restored: StoreContents | null;
  /** Ack ids carry the start count, so no restart hands out an id an earlier run did. */
  private ackPrefix: string;
  /** What the last open found. */
  readonly opened: { topics: number; subscriptions: number; snapshots: number; schemas: number; policies: number; messages: number; dangling: number };

  /**
   * Opens (or creates) the data dir and reads everything it keeps; throws DataDirError when it
   * cannot. Checkpoints run in a worker thread (the server), or inline in SQLite's own way every
   * 1,000 pages (`checkpointWorker: false`: tests that open hundreds of stores). `segmentBytes`:
   * where a body segment is closed (bodies.ts; smaller in tests).
   */
  static open(dir: string, { checkpointWorker = true, segmentBytes = SEGMENT_BYTES } = {}): SqliteStore {
    const opened = openDataDir(dir);
    try {
      return new SqliteStore(opened, dir, checkpointWorker, segmentBytes);
    } catch (e) {
      opened.db.close();
      opened.lock.close();
      throw explain(opened.file, e);
    }
  }

  private constructor(opened: OpenedDataDir, dir: string, checkpointWorker: boolean, segmentBytes: number) {
    const db = (this.db = opened.db);
    this.lock = opened.lock;
    this.dir = dir;
    this.file = opened.file;
    const bodies = (this.bodies = new Bodies(opened.dir, segmentBytes));
    this.faults = new DiskFaults(dir, opened.file, () => bodies.damage());
    const l = load(db, bodies);
    bodies.start(l.live);
    this.q = prepare(db);
    this.w = prepareWide(db);
    this.topicIds = l.topicIds;
    this.subIds = l.subIds;
    this.mem = new MemoryStore((this.reservedSeq = l.nextSeq));
    this.restored = l.contents;
    this.mem.restore(l.logs, l.contents);
    const epoch = l.epoch + 1;
    this.ackPrefix = `${epoch.toString(36)}-`;
    this.transaction(() => {
      this.q.setMeta.run(epoch, "epoch");
      // Rows nothing holds (an entry pointing nowhere was dropped): no longer needed.
      for (const m of l.messages.values()) if (m.refs === 0) this.dropMessage(m);
      for (const { seq, body } of l.damaged) {
        this.q.delMsg.run(seq);
        bodies.release(body);
      }
    });
    if (checkpointWorker) {
      db.run("PRAGMA wal_autocheckpoint = 0");
      this.checkpointer = new Checkpointer(this.file, db);
    }
    const c = l.contents;
    this.opened = { topics: c.topics.length, subscriptions: c.subscriptions.length, snapshots: c.snapshots.length, schemas: c.schemas.length, policies: c.policies.length, messages: this.heldMessages, dangling: l.dangling };
  }

  /**
   * Checkpoints the WAL into the database and closes it (a clean stop). The stopped broker's
   * timers may still fire; what they change is no longer written.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.checkpointer?.close();
    // A statement left unfinalized would keep the connection, and so its lock, alive.
    for (const st of Object.values(this.q)) st.finalize();
    for (const st of Object.values(this.w)) st.finalize();
    this.q = noStatements();
    this.w = noWide();
    this.db.close(true);
    this.bodies.close();
    this.lock.close();
  }

  /** What the database keeps for a subscription, in publish order (inspection and tests). */
  storedEntries(sub: string): { seq: number; attempts: number; acked: boolean }[] {
    const id = this.subIds.get(sub);
    if (id === undefined || this.closed) return [];
    const rows = this.db.query("SELECT seq, attempts, acked FROM entries WHERE sub = ? ORDER BY seq").all(id) as { seq: number; attempts: number; acked: number }[];
    return rows.map((r) => ({ seq: r.seq, attempts: r.attempts, acked: r.acked === 1 }));
  }

  // ---- ids, and the held-memory port (the in-memory store's) ----

  get nextSeq(): number {
    return this.mem.nextSeq;
  }

  nextAckId(): string {
    return this.ackPrefix + this.mem.nextAckId();
  }

  get heldMessages(): number {
    return this.mem.heldMessages;
  }

  get heldBytes(): number {
    return this.mem.heldBytes;
  }

  get pinnedBytes(): number {
    return this.mem.pinnedBytes;
  }

  keepViews(clock: Clock | null, collect?: () => void): void {
    this.mem.keepViews(clock, collect);
  }

  /** One operation's writes, committed before it returns; a disk fault refuses it (disk-faults.ts). */
  transaction<T>(fn: () => T): T {
    if (this.inTransaction || this.closed) return fn();
    this.faults.gate();
    this.inTransaction = true;
    try {
      this.q.begin.run();
      const out = fn();
      this.bodies.write();
      this.q.commit.run();
      this.bodies.committed();
      this.bodyUndo.length = 0;
      this.faults.committed();
      this.checkpointer?.dirty(this.bodies.current);
      return out;
    } catch (e) {
      try {
        if (this.db.inTransaction) this.q.rollback.run();
      } catch {}
      this.bodies.rolledBack();
      const u = this.bodyUndo;
      for (let i = 0; i < u.length; i += 2) (u[i] as HeldMessage).body = u[i + 1] as number;
      this.bodyUndo.length = 0;
      throw this.faults.failed(e);
    } finally {
      this.inTransaction = false;
    }
  }

  /** The disk fault in force, if any (metrics, tests). */
  get diskFault() {
    return this.faults.current;
  }

  /** Hands over what the last run left, once (the broker rebuilds from it at construction). */
  contents(): StoreContents {
    const c = this.restored ?? this.mem.contents();
    this.restored = null;
    return c;
  }

  // ---- resource records ----

  putTopic(topic: TopicResource): void {
    const id = this.topicIds.get(topic.name);
    const config = JSON.stringify(topic);
    this.transaction(() => {
      if (id !== undefined) this.q.setTopic.run(config, id);
      else this.topicIds.set(topic.name, Number(this.q.insTopic.run(topic.name, config).lastInsertRowid));
    });
  }

  deleteTopic(name: string): void {
    const id = this.topicIds.get(name);
    const logged = [...this.mem.logged(name)];
    this.transaction(() => {
      if (id === undefined) return;
      this.q.delTopic.run(id);
      this.q.unlogTopic.run(id);
      for (const m of logged) if ((m as HeldMessage).refs === 1) this.dropMessage(m as HeldMessage);
    });
    this.topicIds.delete(name);
    this.mem.deleteTopic(name);
  }

  putSubscription(sub: SubscriptionResource, createdSeq: number): void {
    const id = this.subIds.get(sub.name);
    const config = JSON.stringify(sub);
    this.transaction(() => {
      if (id !== undefined) this.q.setSub.run(config, id);
      else this.subIds.set(sub.name, Number(this.q.insSub.run(sub.name, config, createdSeq).lastInsertRowid));
    });
  }

  deleteSubscription(name: string): void {
    const id = this.subIds.get(name);
    if (id === undefined) return;
    this.transaction(() => {
      this.q.delSubEntries.run(id);
      this.q.delSub.run(id);
    });
    this.subIds.delete(name);
  }

  putSnapshot(s: SnapshotRecord): void {
    const labels = JSON.stringify(s.labels);
    const exists = this.mem.snapshot(s.name) !== undefined;
    this.transaction(() => {
      if (exists) return void this.q.setSnapshot.run(s.topic, s.expireTime, labels, s.name);
      for (const m of s.backlog) if ((m as HeldMessage).refs === 0) this.insertMessage(m, null);
      this.q.insSnapshot.run(s.name, s.topic, s.expireTime, labels, s.fromSeq, packSeqs(s.backlog));
    });
    this.mem.putSnapshot(s);
  }

  deleteSnapshot(name: string): void {
    const s = this.mem.snapshot(name);
    if (!s) return;
    this.transaction(() => {
      this.q.delSnapshot.run(name);
      for (const m of s.backlog) if ((m as HeldMessage).refs === 1) this.dropMessage(m as HeldMessage);
    });
    this.mem.deleteSnapshot(name);
  }

  putSchema(name: string, revisions: readonly StoredRevision[]): void {
    this.transaction(() => void this.q.putSchema.run(name, JSON.stringify(revisions)));
  }

  deleteSchema(name: string): void {
    this.transaction(() => void this.q.delSchema.run(name));
  }

  putPolicy(resource: string, { version, bindings, auditConfigs, etag }: Policy): void {
    this.transaction(() => void this.q.putPolicy.run(resource, JSON.stringify({ version, bindings, auditConfigs }), etag));
  }

  deletePolicy(resource: string): void {
    this.transaction(() => void this.q.delPolicy.run(resource));
  }

  // ---- the log ----

  /** Skipped seqs are reserved like appended ones, so an id given to a filtered message is never reused. */
  skipSeqs(n: number): number {
    const first = this.mem.skipSeqs(n);
    this.transaction(() => this.reserveSeqs());
    return first;
  }

  private reserveSeqs(): void {
    if (this.mem.nextSeq > this.reservedSeq) {
      this.reservedSeq = this.mem.nextSeq + SEQ_BLOCK;
      this.q.setMeta.run(this.reservedSeq, "next_seq");
    }
  }

  append(topic: string, inputs: readonly MessageInput[], sizes: readonly number[], publishTime: number, log: boolean): StoredMessage[] {
    const out = this.mem.append(topic, inputs, sizes, publishTime, log);
    this.transaction(() => {
      this.reserveSeqs();
      if (!log) return;
      const topicId = this.topicIds.get(topic) ?? null;
      for (const m of out) this.insertMessage(m, topicId);
    });
    return out;
  }

  logged(topic: string): Iterable<StoredMessage> {
    return this.mem.logged(topic);
  }

  trimLog(topic: string, drop: (msg: StoredMessage) => boolean): StoredMessage | undefined {
    const dropped: StoredMessage[] = [];
    const oldest = this.mem.trimLog(topic, (m) => drop(m) && dropped.push(m) > 0);
    if (dropped.length) {
      this.transaction(() => {
        for (const m of dropped) {
          if ((m as HeldMessage).refs === 0) this.dropMessage(m as HeldMessage);
          else this.q.unlogMsg.run(m.seq);
        }
      });
    }
    return oldest;
  }

  // ---- subscription state ----

  addEntries(sub: string, msgs: readonly StoredMessage[]): void {
    const id = this.subId(sub);
    this.transaction(() => {
      const seqs = new Array<number>(msgs.length);
      for (let i = 0; i < msgs.length; i++) {
        const m = msgs[i];
        if ((m as HeldMessage).refs === 0) this.insertMessage(m, null);
        seqs[i] = m.seq;
      }
      this.w.insEntries.run([id], seqs);
    });
    this.mem.addEntries(sub, msgs);
  }

  recordDeliveries(sub: string, deliveries: readonly Delivery[]): void {
    // Attempt counts are kept in memory; while the disk refuses writes they are not stored (a
    // restart may count fewer), so deliveries go on and acks can drain what is held.
    if (this.faults.faulted) return;
    const id = this.subId(sub);
    try {
      this.transaction(() => {
        // Runs of equal counts (a first delivery: all 1) are one statement per 64.
        const seqs: number[] = [];
        for (let i = 0; i < deliveries.length; i++) {
          const n = deliveries[i].deliveryAttempt;
          seqs.push(deliveries[i].message.seq);
          if (i + 1 === deliveries.length || deliveries[i + 1].deliveryAttempt !== n) {
            this.w.setAttempts.run([n, id], seqs);
            seqs.length = 0;
          }
        }
      });
    } catch (e) {
      if (!this.faults.faulted) throw e;
    }
  }

  updateEntries(sub: string, entries: readonly EntryState[]): void {
    const id = this.subId(sub);
    this.transaction(() => {
      for (const e of entries) this.q.setAcked.run(e.acked ? 1 : 0, id, e.msg.seq);
    });
  }

  removeEntries(sub: string, entries: readonly EntryState[]): void {
    const id = this.subId(sub);
    this.transaction(() => {
      const seqs = new Array<number>(entries.length);
      const gone: number[] = [];
      for (let i = 0; i < entries.length; i++) {
        const m = entries[i].msg as HeldMessage;
        seqs[i] = m.seq;
        if (m.refs === 1) gone.push(this.releaseBody(m));
      }
      this.w.delEntries.run([id], seqs);
      if (gone.length) this.w.delMsgs.run([], gone);
    });
    this.mem.removeEntries(sub, entries);
  }

  private subId(name: string): number {
    const id = this.subIds.get(name);
    if (id === undefined) throw new Error(`no stored subscription ${name}`);
    return id;
  }

  private insertMessage(m: StoredMessage, logTopic: number | null): void {
    const attrs = isEmpty(m.attributes) ? null : JSON.stringify(m.attributes);
    if (m.data.length === 0) return void this.q.insMsg.run(m.seq, EMPTY, attrs, m.orderingKey, m.publishTime, m.size, logTopic, null, null);
    const at = this.bodies.append(m.data);
    this.bodyUndo.push(m as HeldMessage, (m as HeldMessage).body);
    (m as HeldMessage).body = this.bodies.seg;
    this.q.insMsg.run(m.seq, EMPTY, attrs, m.orderingKey, m.publishTime, m.size, logTopic, this.bodies.seg, at);
  }

  /** Deletes a message's row; its body segment loses a reference. */
  private dropMessage(m: HeldMessage): void {
    this.q.delMsg.run(this.releaseBody(m));
  }

  /**
   * Its body segment loses a reference (the caller deletes its row); returns its seq. The message
   * forgets its segment at once, so no later drop can release it twice; should the transaction roll
   * back, its row stays and the segment is merely kept until the next start.
   */
  private releaseBody(m: HeldMessage): number {
    if (m.body >= 0) {
      this.bodies.release(m.body);
      m.body = -1;
    }
    return m.seq;
  }
}

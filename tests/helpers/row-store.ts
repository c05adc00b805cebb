/**
 * A store that keeps rows the way a durable one would (records by name, one row per subscription
 * and message), over the memory store for messages and accounting. Tests use it to check that
 * every state change reaches the store, and that a broker rebuilt from it resumes.
 */
import type { Delivery, MessageInput, StoredMessage } from "../../src/core/message.ts";
import type { SubscriptionResource, TopicResource } from "../../src/core/resources.ts";
import { MemoryStore } from "../../src/core/store/memory-store.ts";
import type { Policy } from "../../src/core/iam.ts";
import type { Clock } from "../../src/core/clock.ts";
import type { EntryState, SnapshotRecord, Store, StoreContents, StoredRevision } from "../../src/core/store/store.ts";
import type { HeldMemory } from "../../src/core/store/held-memory.ts";

export interface Row {
  msg: StoredMessage;
  attempts: number;
  acked: boolean;
}

export class RowStore implements Store, HeldMemory {
  readonly mem = new MemoryStore();
  topics = new Map<string, TopicResource>();
  subs = new Map<string, { config: SubscriptionResource; createdSeq: number }>();
  snapshots = new Map<string, SnapshotRecord>();
  schemas = new Map<string, StoredRevision[]>();
  policies = new Map<string, Policy>();
  /** subscription → seq → row */
  rows = new Map<string, Map<number, Row>>();
  transactions = 0;

  skipSeqs(n: number): number {
    return this.mem.skipSeqs(n);
  }

  get nextSeq() {
    return this.mem.nextSeq;
  }
  get heldMessages() {
    return this.mem.heldMessages;
  }
  get heldBytes() {
    return this.mem.heldBytes;
  }
  get pinnedBytes() {
    return this.mem.pinnedBytes;
  }
  keepViews(clock: Clock | null, collect?: () => void) {
    this.mem.keepViews(clock, collect);
  }
  nextAckId() {
    return this.mem.nextAckId();
  }
  transaction<T>(fn: () => T): T {
    this.transactions++;
    return fn();
  }

  contents(): StoreContents {
    return {
      topics: [...this.topics.values()],
      subscriptions: [...this.subs.values()].map(({ config, createdSeq }) => ({
        config,
        createdSeq,
        entries: [...(this.rows.get(config.name)?.values() ?? [])].sort((a, b) => a.msg.seq - b.msg.seq),
      })),
      snapshots: [...this.snapshots.values()],
      schemas: [...this.schemas].map(([name, revisions]) => ({ name, revisions })),
      policies: [...this.policies].map(([resource, policy]) => ({ resource, policy })),
    };
  }

  putTopic(t: TopicResource) {
    this.topics.set(t.name, t);
  }
  deleteTopic(name: string) {
    this.topics.delete(name);
    this.mem.deleteTopic(name);
  }
  putSubscription(config: SubscriptionResource, createdSeq: number) {
    this.subs.set(config.name, { config, createdSeq });
  }
  deleteSubscription(name: string) {
    this.subs.delete(name);
    if (this.rows.get(name)?.size) throw new Error(`subscription ${name} deleted with rows left`);
    this.rows.delete(name);
  }
  putSnapshot(s: SnapshotRecord) {
    this.snapshots.set(s.name, s);
    this.mem.putSnapshot(s);
  }
  deleteSnapshot(name: string) {
    this.snapshots.delete(name);
    this.mem.deleteSnapshot(name);
  }
  putSchema(name: string, revisions: readonly StoredRevision[]) {
    this.schemas.set(name, [...revisions]);
  }
  deleteSchema(name: string) {
    this.schemas.delete(name);
  }
  putPolicy(resource: string, policy: Policy) {
    this.policies.set(resource, policy);
  }
  deletePolicy(resource: string) {
    this.policies.delete(resource);
  }

  append(topic: string, inputs: readonly MessageInput[], sizes: readonly number[], publishTime: number, log: boolean) {
    return this.mem.append(topic, inputs, sizes, publishTime, log);
  }
  logged(topic: string) {
    return this.mem.logged(topic);
  }
  trimLog(topic: string, drop: (m: StoredMessage) => boolean) {
    return this.mem.trimLog(topic, drop);
  }

  addEntries(sub: string, msgs: readonly StoredMessage[]) {
    let t = this.rows.get(sub);
    if (!t) this.rows.set(sub, (t = new Map()));
    for (const msg of msgs) {
      if (t.has(msg.seq)) throw new Error(`row ${sub}/${msg.seq} added twice`);
      t.set(msg.seq, { msg, attempts: 0, acked: false });
    }
    this.mem.addEntries(sub, msgs);
  }
  recordDeliveries(sub: string, deliveries: readonly Delivery[]) {
    for (const d of deliveries) this.row(sub, d.message.seq).attempts = d.deliveryAttempt;
  }
  updateEntries(sub: string, entries: readonly EntryState[]) {
    for (const e of entries) this.row(sub, e.msg.seq).acked = e.acked;
  }
  removeEntries(sub: string, entries: readonly EntryState[]) {
    for (const e of entries) {
      this.row(sub, e.msg.seq);
      this.rows.get(sub)!.delete(e.msg.seq);
    }
    this.mem.removeEntries(sub, entries);
  }

  private row(sub: string, seq: number): Row {
    const r = this.rows.get(sub)?.get(seq);
    if (!r) throw new Error(`no row ${sub}/${seq}`);
    return r;
  }
}

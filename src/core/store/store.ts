/**
 * The storage contract the core owns. Everything that outlives a request lives behind it: the
 * topic, subscription, snapshot and schema records, IAM policies, each topic's message log (every message stored once),
 * each subscription's state over that log, and the id counters. The core keeps its delivery
 * indexes (backlog queues, key queues, leases) in memory and tells the store every state change,
 * so the in-memory store and a durable one (bun:sqlite) serve the same delivery code.
 *
 * Every call is synchronous. The core groups its writes: one call per request and per kind of
 * change, and `transaction()` around the calls of one operation (a publish, a seek, a delete), so
 * a durable store writes each operation in one transaction. Leases are never stored: after a
 * restart every unacked message is simply waiting again.
 *
 * Lifetime: a message is held while any holder has it — a subscription's entry (unacked, or acked
 * and kept by retain_acked_messages), a snapshot's backlog, or its topic's log (topic retention
 * and snapshot tails keep every new message there). This contract is only storage: how many
 * messages are held in memory, and their bytes, is the held-memory port (held-memory.ts), which
 * the memory budget reads.
 */
import type { Policy, PolicyRecord } from "../iam.ts";
import type { Delivery, MessageInput, StoredMessage } from "../message.ts";
import type { SubscriptionResource, TopicResource } from "../resources.ts";
import type { SchemaRecord, StoredRevision } from "../schemas/registry.ts";

export type { PolicyRecord, SchemaRecord, StoredRevision };

/** One subscription's state for one message: what a durable store keeps per (subscription, seq). */
export interface EntryState {
  readonly msg: StoredMessage;
  /** Deliveries so far (the dead-letter count). */
  readonly attempts: number;
  /** Acked and kept for retain_acked_messages (a seek may make it unacked again). */
  readonly acked: boolean;
}

export interface SnapshotRecord {
  /** projects/{project}/snapshots/{id} */
  readonly name: string;
  /** The topic it was taken on (_deleted-topic_ once that is deleted). */
  topic: string;
  /** When it goes away (ms since the epoch). */
  expireTime: number;
  labels: Record<string, string>;
  /** Every message of the topic from this seq on is kept for it (in the topic's log). */
  readonly fromSeq: number;
  /** The subscription's unacked messages when it was taken, in publish order. */
  readonly backlog: readonly StoredMessage[];
}

/** What a store holds from an earlier run, for the broker to rebuild its state from. */
export interface StoreContents {
  topics: TopicResource[];
  /** Each with its entries in publish order. */
  subscriptions: { config: SubscriptionResource; createdSeq: number; entries: EntryState[] }[];
  snapshots: SnapshotRecord[];
  /** Each schema with its revisions, oldest first (the registry compiles them again). */
  schemas: SchemaRecord[];
  policies: PolicyRecord[];
}

export interface Store {
  // ---- ids ----

  /** The seq (and so the id) the next appended message gets; seqs only grow. */
  readonly nextSeq: number;
  /** A fresh ack id, never handed out before by this store (a durable one adds a restart epoch). */
  nextAckId(): string;
  /** Takes `n` seqs for messages never stored (filtered by a topic transform); returns the first. */
  skipSeqs(n: number): number;

  /** Runs `fn` as one unit of writes (a transaction in a durable store). */
  transaction<T>(fn: () => T): T;

  /** What an earlier run left (a fresh or in-memory store has nothing). */
  contents(): StoreContents;

  // ---- resource records ----

  putTopic(topic: TopicResource): void;
  /** Forgets the topic and its log. */
  deleteTopic(name: string): void;
  /** `createdSeq`: the first seq published while it existed (a seek to a time restores from there). */
  putSubscription(sub: SubscriptionResource, createdSeq: number): void;
  /** Forgets the record; the core removes its entries first. */
  deleteSubscription(name: string): void;
  /** Creates (holding its backlog) or updates (labels, expiry) a snapshot. */
  putSnapshot(snapshot: SnapshotRecord): void;
  /** Forgets the snapshot and releases its backlog. */
  deleteSnapshot(name: string): void;
  /** Creates or replaces a schema with its whole revision list, oldest first (at most 20). */
  putSchema(name: string, revisions: readonly StoredRevision[]): void;
  deleteSchema(name: string): void;
  /** Sets or replaces the IAM policy of a resource. */
  putPolicy(resource: string, policy: Policy): void;
  deletePolicy(resource: string): void;

  // ---- the log ----

  /**
   * Stores a publish batch on `topic`: gives each message its seq and id. With `log`, the topic's
   * log keeps them (topic retention, snapshot tails). No one else holds them until addEntries.
   */
  append(topic: string, inputs: readonly MessageInput[], sizes: readonly number[], publishTime: number, log: boolean): StoredMessage[];
  /** What the topic's log keeps, oldest first. */
  logged(topic: string): Iterable<StoredMessage>;
  /** Releases the log's oldest messages while `drop` says so; returns the oldest one it keeps. */
  trimLog(topic: string, drop: (msg: StoredMessage) => boolean): StoredMessage | undefined;

  // ---- subscription state (each call is one batch) ----

  /** The subscription starts holding these messages: new entries, unacked, no attempts yet (a publish fan-out, a seek restoring messages). */
  addEntries(sub: string, msgs: readonly StoredMessage[]): void;
  /** A batch went out: each delivery's attempt count is its entry's new `attempts`. */
  recordDeliveries(sub: string, deliveries: readonly Delivery[]): void;
  /** These entries changed otherwise: acked and kept, unacked again by a seek. */
  updateEntries(sub: string, entries: readonly EntryState[]): void;
  /** The subscription no longer holds these (acked, dropped by retention, dead-lettered, sought past). */
  removeEntries(sub: string, entries: readonly EntryState[]): void;
}

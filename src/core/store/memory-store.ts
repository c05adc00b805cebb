/**
 * The in-memory store. The core's own objects (subscription entries, snapshots) are the state, so
 * this store keeps only what they do not: the topic logs, the snapshot records, the id counters,
 * and a holder count per message that frees it the moment nothing needs it. It is also the
 * held-memory port (held-memory.ts): the one place messages are counted held and freed. A durable
 * store holds one of these for its messages in memory and writes through beside it.
 */
import { Deque } from "../deque.ts";
import type { Delivery, MessageInput, StoredMessage } from "../message.ts";
import type { SubscriptionResource, TopicResource } from "../resources.ts";
import type { Policy } from "../iam.ts";
import type { EntryState, SnapshotRecord, Store, StoreContents, StoredRevision } from "./store.ts";
import type { Clock } from "../clock.ts";
import type { HeldMemory } from "./held-memory.ts";
import { HeldViews, type ViewGroup, type ViewHolder } from "./held-views.ts";

const EMPTY = new Uint8Array(0);
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** A message with its holder count. The id is derived from seq, so it costs no memory per message. */
export class HeldMessage implements StoredMessage, ViewHolder {
  /** Holders: subscription entries, snapshot backlogs, the topic log. */
  refs = 0;
  /** While its data are a view into its request (held-views.ts). */
  views: ViewGroup | null = null;
  /** The body segment a durable store keeps its data in (persistence/bodies.ts), or -1. */
  body = -1;

  constructor(
    readonly seq: number,
    /** Replaced once by a copy of itself when it was a view into a request (held-views.ts). */
    public data: Uint8Array,
    readonly attributes: Readonly<Record<string, string>>,
    readonly orderingKey: string,
    readonly publishTime: number,
    readonly size: number,
  ) {}

  get id(): string {
    return String(this.seq);
  }
}

export class MemoryStore implements Store, HeldMemory {
  /** `nextSeq`: where seqs go on from (a durable store's, after a restart). */
  constructor(public nextSeq = 1) {}

  skipSeqs(n: number): number {
    const first = this.nextSeq;
    this.nextSeq += n;
    return first;
  }
  heldMessages = 0;
  heldBytes = 0;
  private views = new HeldViews();

  get pinnedBytes(): number {
    return this.views.pinnedBytes;
  }

  keepViews(clock: Clock | null, collect?: () => void): void {
    if (clock) this.views.start(clock, collect);
    else this.views.stop();
  }
  private ackSeq = 0;
  private logs = new Map<string, Deque<HeldMessage>>();
  private snapshots = new Map<string, SnapshotRecord>();

  /**
   * Holds what an earlier run left, as a durable store read it: each topic's log (oldest first),
   * every subscription's entries and every snapshot's backlog.
   */
  restore(logs: ReadonlyMap<string, readonly HeldMessage[]>, kept: StoreContents): void {
    for (const [topic, msgs] of logs) {
      const q = new Deque<HeldMessage>();
      for (const m of msgs) {
        this.hold(m);
        q.push(m);
      }
      this.logs.set(topic, q);
    }
    for (const s of kept.subscriptions) for (const e of s.entries) this.hold(e.msg as HeldMessage);
    for (const s of kept.snapshots) {
      for (const m of s.backlog) this.hold(m as HeldMessage);
      this.snapshots.set(s.name, s);
    }
  }

  /** The snapshot record of that name, if stored. */
  snapshot(name: string): SnapshotRecord | undefined {
    return this.snapshots.get(name);
  }

  nextAckId(): string {
    return (++this.ackSeq).toString(36);
  }

  transaction<T>(fn: () => T): T {
    return fn();
  }

  contents(): StoreContents {
    return { topics: [], subscriptions: [], snapshots: [], schemas: [], policies: [] };
  }

  // Topic and subscription records live in the broker's own maps.
  putTopic(_topic: TopicResource): void {}

  deleteTopic(name: string): void {
    const log = this.logs.get(name);
    if (!log) return;
    this.logs.delete(name);
    for (let m = log.shift(); m; m = log.shift()) this.release(m);
  }

  putSubscription(_sub: SubscriptionResource, _createdSeq: number): void {}
  deleteSubscription(_name: string): void {}
  // Schemas and policies live in the registry's and IamPolicies' own maps.
  putSchema(_name: string, _revisions: readonly StoredRevision[]): void {}
  deleteSchema(_name: string): void {}
  putPolicy(_resource: string, _policy: Policy): void {}
  deletePolicy(_resource: string): void {}

  putSnapshot(snapshot: SnapshotRecord): void {
    const had = this.snapshots.has(snapshot.name);
    this.snapshots.set(snapshot.name, snapshot);
    if (!had) for (const m of snapshot.backlog) this.hold(m as HeldMessage);
  }

  deleteSnapshot(name: string): void {
    const snapshot = this.snapshots.get(name);
    if (!snapshot) return;
    this.snapshots.delete(name);
    for (const m of snapshot.backlog) this.release(m as HeldMessage);
  }

  append(topic: string, inputs: readonly MessageInput[], sizes: readonly number[], publishTime: number, log: boolean): StoredMessage[] {
    const out = new Array<StoredMessage>(inputs.length);
    for (let i = 0; i < inputs.length; i++) {
      const m = inputs[i];
      out[i] = new HeldMessage(this.nextSeq++, m.data ?? EMPTY, m.attributes ?? NO_ATTRIBUTES, m.orderingKey ?? "", publishTime, sizes[i]);
    }
    if (log) {
      let q = this.logs.get(topic);
      if (!q) this.logs.set(topic, (q = new Deque<HeldMessage>()));
      for (const m of out) {
        this.hold(m as HeldMessage);
        q.push(m as HeldMessage);
      }
    }
    return out;
  }

  logged(topic: string): Iterable<StoredMessage> {
    return this.logs.get(topic) ?? [];
  }

  trimLog(topic: string, drop: (msg: StoredMessage) => boolean): StoredMessage | undefined {
    const q = this.logs.get(topic);
    if (!q) return undefined;
    for (let m = q.peek(); m; m = q.peek()) {
      if (!drop(m)) return m;
      this.release(q.shift()!);
    }
    this.logs.delete(topic);
    return undefined;
  }

  addEntries(_sub: string, msgs: readonly StoredMessage[]): void {
    for (let i = 0; i < msgs.length; i++) this.hold(msgs[i] as HeldMessage);
  }

  // The entries themselves are the state in memory: nothing to write.
  recordDeliveries(_sub: string, _deliveries: readonly Delivery[]): void {}
  updateEntries(_sub: string, _entries: readonly EntryState[]): void {}

  removeEntries(_sub: string, entries: readonly EntryState[]): void {
    for (let i = 0; i < entries.length; i++) this.release(entries[i].msg as HeldMessage);
  }

  /** The one place a message's bytes become held. */
  private hold(m: HeldMessage): void {
    if (m.refs++ === 0) {
      this.heldMessages++;
      this.heldBytes += m.size;
      this.views.held(m);
    }
  }

  /** The one place they are freed. */
  private release(m: HeldMessage): void {
    if (--m.refs === 0) {
      this.heldMessages--;
      this.heldBytes -= m.size;
      this.views.released(m);
    }
  }
}

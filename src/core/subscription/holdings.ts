/**
 * What one subscription holds: its entries in publish order (the held list), the backlog of those
 * waiting, the entries held back by retry backoff, and retention (one timer for the oldest entry).
 * Seek and restore rebuild it; every change of what it holds goes to the store here. A part of
 * Subscription, beside its Leases (which it ends when retention or a seek takes a leased entry).
 */
import { Backlog, newEntry, type Entry } from "./backlog.ts";
import type { Clock } from "../clock.ts";
import { DeadlineTimer } from "../deadline-timer.ts";
import { HeldList } from "./held-list.ts";
import type { HeapEntry } from "../heap.ts";
import type { Leases } from "./leases.ts";
import type { StoredMessage } from "../message.ts";
import type { SubscriptionResource, TopicResource } from "../resources.ts";
import type { EntryState, Store } from "../store/store.ts";
import { TimedHeap } from "../timed-heap.ts";

export interface Delayed extends HeapEntry {
  release(): void;
}

/** What the holdings read of the subscription they belong to. */
export interface Holder {
  readonly name: string;
  readonly config: SubscriptionResource;
  readonly topic: { readonly config: TopicResource } | null;
}

export class Holdings {
  readonly backlog: Backlog;
  readonly held = new HeldList();
  /** Returned entries held back by retry backoff. */
  readonly delayed: TimedHeap<Delayed>;
  /** One timer, for the oldest entry; it is not cancelled when that entry goes, only re-armed. */
  private retentionTimer: DeadlineTimer;
  /** Set by the broker: false when a filter rejects the message. */
  matches: (msg: StoredMessage) => boolean = () => true;
  /** Whether it has a filter at all (without one, a publish is taken whole). */
  filtered = false;

  constructor(
    private owner: Holder,
    private leases: Leases,
    private clock: Clock,
    private store: Store,
  ) {
    this.backlog = new Backlog(owner.config.enableMessageOrdering);
    this.delayed = new TimedHeap<Delayed>(clock, (d) => d.release());
    this.retentionTimer = new DeadlineTimer(clock, () => this.expireOld());
  }

  /** How long it keeps a message: its own retention, or the topic's when that is longer. */
  get retentionMs(): number {
    const o = this.owner;
    return Math.max(o.config.messageRetentionDuration, o.topic?.config.messageRetentionDuration ?? 0);
  }

  /** Takes the messages of a publish its filter accepts. */
  /** `added` collects the new entries (a subscription whose delivery stage runs at publish). */
  enqueue(msgs: readonly StoredMessage[], added?: Entry[]): void {
    const all = !this.filtered;
    const taken: StoredMessage[] = all ? (msgs as StoredMessage[]) : [];
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i];
      if (!all) {
        if (!this.matches(m)) continue;
        taken.push(m);
      }
      const e = newEntry(m);
      this.held.push(e);
      this.backlog.add(e);
      added?.push(e);
    }
    if (taken.length === 0) return;
    this.store.addEntries(this.owner.name, taken);
    if (!this.retentionTimer.armed) this.armRetention();
  }

  /** Rebuilds what a store kept from an earlier run (every unacked message waits again: leases are not kept). */
  restore(states: readonly EntryState[]): void {
    for (const st of states) {
      const e = newEntry(st.msg, st.attempts, st.acked);
      this.held.push(e);
      if (!e.acked) this.backlog.add(e);
    }
    this.armRetention();
  }

  /** What it holds, in publish order (inspection; the store's rows mirror it). */
  *entries(): Iterable<EntryState> {
    for (let e = this.held.head; e; e = e.next) yield e;
  }

  /** Entries waiting for delivery (unacked, not leased, including ones held back by backoff), in publish order. */
  *waiting(): Iterable<Entry> {
    for (let e = this.held.head; e; e = e.next) if (!e.acked && !e.lease) yield e;
  }

  /** The unacked messages it holds, in publish order (what a snapshot keeps). */
  unacked(): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (let e = this.held.head; e; e = e.next) if (!e.acked) out.push(e.msg);
    return out;
  }

  /**
   * Seek: every message it holds or `restore` offers becomes unacked when `isUnacked(msg)` says so
   * and acked otherwise (kept only with retain_acked_messages). Every lease ends, so open streams
   * get the unacked messages again at once, in publish order (the caller dispatches).
   */
  resetTo(isUnacked: (m: StoredMessage) => boolean, restore: Iterable<StoredMessage>): void {
    this.leases.endAll();
    this.delayed.clear();
    this.backlog.clear();
    const keep = this.owner.config.retainAckedMessages;
    const kept: Entry[] = [];
    const changed: Entry[] = [];
    const removed: Entry[] = [];
    const have = new Set<number>();
    for (const e of this.held.clear()) {
      have.add(e.msg.seq);
      e.keyQueue = null;
      // Back in the queues: a preparation still running for it is disregarded when it ends.
      e.preparing = 0;
      const acked = !isUnacked(e.msg);
      if (acked && !keep) {
        e.gone = true;
        removed.push(e);
        continue;
      }
      if (acked !== e.acked) changed.push(e);
      e.acked = acked;
      kept.push(e);
    }
    const added: Entry[] = [];
    for (const m of restore) {
      if (have.has(m.seq) || !isUnacked(m) || !this.matches(m)) continue;
      have.add(m.seq);
      added.push(newEntry(m));
    }
    const all = added.length ? kept.concat(added).sort((a, b) => a.msg.seq - b.msg.seq) : kept;
    const addedMsgs = added.map((e) => e.msg);
    for (const e of all) {
      this.held.push(e);
      if (!e.acked) this.backlog.add(e);
    }
    const name = this.owner.name;
    this.store.transaction(() => {
      if (removed.length) this.store.removeEntries(name, removed);
      if (changed.length) this.store.updateEntries(name, changed);
      if (added.length) this.store.addEntries(name, addedMsgs);
    });
    this.retentionChanged();
  }

  /** Retention or retain_acked_messages changed: apply the new values at once. */
  retentionChanged(): void {
    if (!this.owner.config.retainAckedMessages) {
      const acked: Entry[] = [];
      for (let e = this.held.head; e; e = e.next) if (e.acked) acked.push(e);
      for (const e of acked) this.unhold(e);
      if (acked.length) this.store.removeEntries(this.owner.name, acked);
    }
    this.retentionTimer.cancel();
    this.expireOld();
  }

  /** Lets go of everything it holds (delete, detach); the leases go with it. */
  dropAll(): void {
    this.leases.clear();
    this.delayed.clear();
    this.backlog.clear();
    const all = this.held.clear();
    for (const e of all) e.gone = true;
    if (all.length) this.store.removeEntries(this.owner.name, all);
    this.retentionTimer.cancel();
  }

  /** Takes an entry off the held list (the caller tells the store). */
  unhold(e: Entry): void {
    this.held.unlink(e);
    e.gone = true;
  }

  /** Drops what is older than retention, whatever its state, then re-arms for the next oldest. */
  expireOld(): void {
    const now = this.clock.now();
    const keepMs = this.retentionMs;
    const dropped: Entry[] = [];
    for (let e = this.held.head; e && e.msg.publishTime + keepMs <= now; e = this.held.head) {
      if (e.lease) {
        this.leases.end(e.lease);
        this.backlog.settled(e);
      } else if (!e.acked && !e.gone) this.backlog.remove(e);
      this.unhold(e);
      dropped.push(e);
    }
    if (dropped.length) this.store.removeEntries(this.owner.name, dropped);
    this.armRetention();
  }

  private armRetention(): void {
    const head = this.held.head;
    if (head) this.retentionTimer.armAt(head.msg.publishTime + this.retentionMs);
  }
}

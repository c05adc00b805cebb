/**
 * One subscription's delivery state: the entries it holds (publish order), the backlog of those
 * waiting, the leases of delivered ones (a deadline-ordered heap with one timer), and the
 * consumers it hands messages to. Delivery is event-driven: enqueue, ack, nack, expiry and a
 * consumer regaining room all call dispatch(). Every change of what it holds goes to the store.
 */
import { Backlog, newEntry, type Entry, type KeyQueue, type Lease } from "./backlog.ts";
import type { Clock } from "./clock.ts";
import { Consumer } from "./consumer.ts";
import { PubSubError, failedPrecondition } from "./errors.ts";
import { HeldList } from "./held-list.ts";
import { LIMITS } from "./limits.ts";
import type { HeapEntry } from "./heap.ts";
import type { Delivery, StoredMessage } from "./message.ts";
import { SECOND, SUBSCRIPTION_DEFAULTS, type SubscriptionResource } from "./resources.ts";
import type { EntryState, Store } from "./store/store.ts";
import { TimedHeap } from "./timed-heap.ts";
import type { Topic } from "./topic.ts";

interface Delayed extends HeapEntry {
  release(): void;
}

export interface SubscriptionHooks {
  /** Forwards a message that ran out of delivery attempts; true when it was accepted. */
  deadLetter(sub: Subscription, entry: Entry): boolean;
}

const NONE: readonly string[] = Object.freeze([]);

export class Subscription {
  private backlog: Backlog;
  private held = new HeldList();
  private leases = new Map<string, Lease>();
  private leaseHeap: TimedHeap<Lease>;
  private delayed: TimedHeap<Delayed>;
  private consumers: Consumer[] = [];
  private rr = 0;
  private dispatching = false;
  private again = false;
  private fillTimer: unknown = null;
  private retentionTimer: unknown = null;
  private retentionAt = Infinity;
  /** Set by the broker: false when a filter rejects the message. */
  matches: (msg: StoredMessage) => boolean = () => true;
  /** Its topic while attached (null once the topic is deleted or the subscription detached). */
  topic: Topic | null = null;
  /** Last pull, stream, ack or modack (the expiration policy's clock). */
  lastActive: number;
  /** Messages from this seq on were published while it existed (a seek to a time may restore them). */
  readonly createdSeq: number;

  constructor(
    public config: SubscriptionResource,
    private clock: Clock,
    private store: Store,
    private hooks: SubscriptionHooks,
    private fillWaitMs = 0,
  ) {
    this.backlog = new Backlog(config.enableMessageOrdering);
    this.leaseHeap = new TimedHeap<Lease>(clock, (lease, now) => this.leaseDue(lease, now));
    this.delayed = new TimedHeap<Delayed>(clock, (d) => d.release());
    this.lastActive = clock.now();
    this.createdSeq = store.nextSeq;
  }

  get name(): string {
    return this.config.name;
  }

  /** Messages waiting plus messages outstanding. */
  get backlogSize(): number {
    return this.backlog.waiting + this.leases.size;
  }

  get outstanding(): number {
    return this.leases.size;
  }

  get hasConsumers(): boolean {
    return this.consumers.length > 0;
  }

  /** How long it keeps a message: its own retention, or the topic's when that is longer. */
  get retentionMs(): number {
    return Math.max(this.config.messageRetentionDuration, this.topic?.config.messageRetentionDuration ?? 0);
  }

  /** Takes the messages of a publish its filter accepts. */
  enqueue(msgs: readonly StoredMessage[]): void {
    const added: Entry[] = [];
    for (let i = 0; i < msgs.length; i++) {
      const m = msgs[i];
      if (!this.matches(m)) continue;
      const e = newEntry(m);
      this.held.push(e);
      this.backlog.add(e);
      added.push(e);
    }
    if (added.length === 0) return;
    this.store.addEntries(this.name, added);
    if (this.retentionTimer === null) this.armRetention();
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

  /** After a publish: deliver now, or after the fill wait when fewer than a full response wait. */
  published(): void {
    if (this.fillWaitMs > 0 && this.backlog.waiting < 1000) {
      if (this.fillTimer === null) {
        this.fillTimer = this.clock.schedule(this.clock.now() + this.fillWaitMs, () => {
          this.fillTimer = null;
          this.dispatch();
        });
      }
      return;
    }
    this.dispatch();
  }

  addConsumer(c: Consumer): void {
    if (this.config.detached) throw failedPrecondition(`Subscription ${this.name} is detached.`);
    this.lastActive = this.clock.now();
    this.consumers.push(c);
    this.dispatch();
  }

  removeConsumer(c: Consumer): void {
    const i = this.consumers.indexOf(c);
    if (i < 0) return;
    this.consumers.splice(i, 1);
    this.lastActive = this.clock.now();
  }

  /** A backpressured consumer can take messages again. */
  resume(c: Consumer): void {
    c.ready = true;
    this.dispatch();
  }

  /** Acknowledges. Returns the ack ids that matched no lease (unknown, expired, already used). */
  ack(ackIds: readonly string[]): readonly string[] {
    this.lastActive = this.clock.now();
    const keep = this.config.retainAckedMessages;
    const done: Entry[] = [];
    let invalid: string[] | null = null;
    for (let i = 0; i < ackIds.length; i++) {
      const lease = this.leases.get(ackIds[i]);
      if (!lease) {
        (invalid ??= []).push(ackIds[i]);
        continue;
      }
      const e = lease.entry;
      this.endLease(lease);
      this.backlog.settled(e);
      if (keep) e.acked = true;
      else this.unhold(e);
      done.push(e);
    }
    if (done.length) {
      if (keep) this.store.updateEntries(this.name, done);
      else this.store.removeEntries(this.name, done);
      this.dispatch();
    }
    return invalid ?? NONE;
  }

  /** Sets the deadline of leases; 0 seconds is a nack. Returns the ack ids that matched no lease. */
  modifyAckDeadline(ackIds: readonly string[], seconds: number): readonly string[] {
    const now = this.clock.now();
    this.lastActive = now;
    let invalid: string[] | null = null;
    let nacked = false;
    for (let i = 0; i < ackIds.length; i++) {
      const lease = this.leases.get(ackIds[i]);
      if (!lease) {
        (invalid ??= []).push(ackIds[i]);
        continue;
      }
      if (seconds === 0) {
        this.release(lease, now);
        nacked = true;
        continue;
      }
      const deadline = now + seconds * SECOND;
      lease.deadline = deadline;
      if (deadline < lease.key) this.leaseHeap.reschedule(lease, deadline);
    }
    // Only a nack frees room or returns messages; an extension (the clients' per-message lease
    // modack, the common case) has nothing to deliver.
    if (nacked) this.dispatch();
    return invalid ?? NONE;
  }

  /** Ends delivery to every consumer with `error` and lets go of everything it holds (delete, detach). */
  close(error: PubSubError): void {
    for (const c of this.consumers.splice(0)) c.close(error);
    this.leaseHeap.clear();
    this.delayed.clear();
    this.leases.clear();
    this.backlog.clear();
    const all = this.held.clear();
    for (const e of all) e.gone = true;
    if (all.length) this.store.removeEntries(this.name, all);
    if (this.fillTimer !== null) this.clock.cancel(this.fillTimer);
    if (this.retentionTimer !== null) this.clock.cancel(this.retentionTimer);
    this.fillTimer = this.retentionTimer = null;
  }

  /** The unacked messages it holds, in publish order (what a snapshot keeps). */
  unacked(): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (let e = this.held.head; e; e = e.next) if (!e.acked) out.push(e.msg);
    return out;
  }

  /**
   * Seek: every message it holds or `restore` offers becomes unacked when `unacked(msg)` says so
   * and acked otherwise (kept only with retain_acked_messages). Every lease ends, so open streams
   * get the unacked messages again at once, in publish order.
   */
  resetTo(unacked: (m: StoredMessage) => boolean, restore: Iterable<StoredMessage>): void {
    this.leaseHeap.clear();
    this.delayed.clear();
    for (const lease of [...this.leases.values()]) this.endLease(lease);
    this.backlog.clear();
    const keep = this.config.retainAckedMessages;
    const kept: Entry[] = [];
    const changed: Entry[] = [];
    const removed: Entry[] = [];
    const have = new Set<number>();
    for (const e of this.held.clear()) {
      have.add(e.msg.seq);
      e.keyQueue = null;
      const acked = !unacked(e.msg);
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
      if (have.has(m.seq) || !unacked(m) || !this.matches(m)) continue;
      have.add(m.seq);
      added.push(newEntry(m));
    }
    const all = added.length ? kept.concat(added).sort((a, b) => a.msg.seq - b.msg.seq) : kept;
    for (const e of all) {
      this.held.push(e);
      if (!e.acked) this.backlog.add(e);
    }
    this.store.transaction(() => {
      if (removed.length) this.store.removeEntries(this.name, removed);
      if (changed.length) this.store.updateEntries(this.name, changed);
      if (added.length) this.store.addEntries(this.name, added);
    });
    this.retentionChanged();
    this.dispatch();
  }

  /** Retention or retain_acked_messages changed: apply the new values at once. */
  retentionChanged(): void {
    if (!this.config.retainAckedMessages) {
      const acked: Entry[] = [];
      for (let e = this.held.head; e; e = e.next) if (e.acked) acked.push(e);
      for (const e of acked) this.unhold(e);
      if (acked.length) this.store.removeEntries(this.name, acked);
    }
    if (this.retentionTimer !== null) this.clock.cancel(this.retentionTimer);
    this.retentionTimer = null;
    this.retentionAt = Infinity;
    this.expireOld();
  }

  dispatch(): void {
    if (this.dispatching) {
      this.again = true;
      return;
    }
    this.dispatching = true;
    try {
      do {
        this.again = false;
        this.dispatchRound();
      } while (this.again);
    } finally {
      this.dispatching = false;
    }
  }

  private dispatchRound(): void {
    const now = this.clock.now();
    const head = this.held.head;
    // The retention timer may not have fired yet: never deliver a message past retention.
    if (head && head.msg.publishTime + this.retentionMs <= now) this.expireOld();
    for (;;) {
      const cs = this.consumers;
      if (cs.length === 0 || this.backlog.waiting === 0) return;
      let withRoom = 0;
      for (const c of cs) if (c.roomMessages() > 0) withRoom++;
      if (withRoom === 0) return;
      // Share the backlog across consumers so several streams split one burst.
      const share = Math.max(1, Math.ceil(this.backlog.waiting / withRoom));
      let delivered = false;
      const n = cs.length;
      const start = this.rr++ % n;
      for (let i = 0; i < n && this.backlog.waiting > 0; i++) {
        const c = cs[(start + i) % n];
        if (!c) continue;
        const limit = Math.min(c.roomMessages(), share);
        if (limit <= 0) continue;
        const batch = this.take(c, limit, now);
        if (batch.length === 0) continue;
        delivered = true;
        this.store.recordDeliveries(this.name, batch);
        if (c.oneShot) this.removeConsumer(c);
        c.deliver(batch);
      }
      if (!delivered) return;
    }
  }

  private take(c: Consumer, limit: number, now: number): Delivery[] {
    const batch: Delivery[] = [];
    let bytes = 0;
    // Flow control as the proto states it: stop once the bytes out reach the limit (so one
    // message may take it over); one response also stays near the publish limit.
    const maxOut = c.maxOutstandingBytes;
    const deadline = now + c.ackDeadlineSeconds * SECOND;
    let run: KeyQueue | null = null;
    while (batch.length < limit) {
      if (maxOut && c.outstandingBytes + bytes >= maxOut) break;
      let e: Entry | undefined = this.backlog.next(now, run);
      if (!e && run) e = this.backlog.next(now, (run = null));
      if (!e) break;
      const size = e.msg.size;
      if (batch.length > 0 && bytes + size > LIMITS.publishRequestBytes) {
        this.backlog.untake(e);
        break;
      }
      bytes += size;
      run = e.keyQueue;
      batch.push(this.lease(e, c, deadline));
    }
    return batch;
  }

  private lease(e: Entry, c: Consumer, deadline: number): Delivery {
    const ackId = this.store.nextAckId();
    const lease: Lease = { ackId, entry: e, consumer: c, deadline, key: deadline, heapIndex: -1 };
    e.lease = lease;
    e.attempts++;
    this.leases.set(ackId, lease);
    this.leaseHeap.add(lease, deadline);
    c.outstanding++;
    c.outstandingBytes += e.msg.size;
    return { ackId, message: e.msg, deliveryAttempt: e.attempts };
  }

  private endLease(lease: Lease): void {
    this.leases.delete(lease.ackId);
    this.leaseHeap.remove(lease);
    lease.entry.lease = null;
    lease.consumer.outstanding--;
    lease.consumer.outstandingBytes -= lease.entry.msg.size;
  }

  private leaseDue(lease: Lease, now: number): void {
    if (lease.deadline > now) this.leaseHeap.add(lease, lease.deadline);
    else {
      this.release(lease, now);
      this.dispatch();
    }
  }

  /**
   * Nack or expiry: the message (and, for a key, every later one out) goes back for redelivery.
   * The caller dispatches once afterwards, so a batch nack is one dispatch, not one per message.
   */
  private release(lease: Lease, now: number): void {
    if (lease.entry.lease === lease) this.endLease(lease);
    const entry = lease.entry;
    const dl = this.config.deadLetterPolicy;
    if (dl && entry.attempts >= dl.maxDeliveryAttempts && this.hooks.deadLetter(this, entry)) {
      this.backlog.drop(entry);
      this.unhold(entry);
      this.store.removeEntries(this.name, [entry]);
      return;
    }
    const notBefore = now + this.backoff(entry.attempts);
    const later = this.backlog.returnEntry(entry, notBefore, now);
    for (const e of later) if (e.lease) this.endLease(e.lease);
    if (notBefore > now) this.delay(entry, notBefore);
  }

  private backoff(attempts: number): number {
    const rp = this.config.retryPolicy;
    if (!rp) return 0;
    const min = rp.minimumBackoff ?? SUBSCRIPTION_DEFAULTS.minimumBackoff;
    const max = rp.maximumBackoff ?? SUBSCRIPTION_DEFAULTS.maximumBackoff;
    return Math.min(max, min * 2 ** Math.max(0, attempts - 1));
  }

  /** Holds a returned entry back until `at` (retry backoff); its key, if any, waits with it. */
  private delay(entry: Entry, at: number): void {
    const kq = entry.keyQueue;
    const release = () => {
      if (kq) this.backlog.releaseKey(kq);
      else this.backlog.requeue(entry);
      this.dispatch();
    };
    this.delayed.add({ key: at, heapIndex: -1, release }, at);
  }

  /** Takes an entry off the held list (the caller tells the store). */
  private unhold(e: Entry): void {
    this.held.unlink(e);
    e.gone = true;
  }

  /** Drops what is older than retention, whatever its state, then re-arms for the next oldest. */
  private expireOld(): void {
    const now = this.clock.now();
    const keepMs = this.retentionMs;
    const dropped: Entry[] = [];
    for (let e = this.held.head; e && e.msg.publishTime + keepMs <= now; e = this.held.head) {
      if (e.lease) {
        this.endLease(e.lease);
        this.backlog.settled(e);
      } else if (!e.acked && !e.gone) this.backlog.remove(e);
      this.unhold(e);
      dropped.push(e);
    }
    if (dropped.length) this.store.removeEntries(this.name, dropped);
    this.armRetention();
  }

  /** One timer, for the oldest entry; it is not cancelled when that entry goes, only re-armed. */
  private armRetention(): void {
    const head = this.held.head;
    if (!head) return;
    const at = head.msg.publishTime + this.retentionMs;
    if (at >= this.retentionAt) return;
    if (this.retentionTimer !== null) this.clock.cancel(this.retentionTimer);
    this.retentionAt = at;
    this.retentionTimer = this.clock.schedule(at, () => {
      this.retentionTimer = null;
      this.retentionAt = Infinity;
      this.expireOld();
    });
  }
}

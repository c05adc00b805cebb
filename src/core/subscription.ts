/**
 * One subscription's delivery state: the backlog, the leases of delivered messages (in a
 * deadline-ordered heap with one timer), and the consumers it hands messages to. Delivery is
 * event-driven: enqueue, ack, nack, expiry and a consumer regaining room all call dispatch().
 */
import { Backlog, type Entry, type KeyQueue, type Lease } from "./backlog.ts";
import type { Clock } from "./clock.ts";
import { Consumer } from "./consumer.ts";
import { PubSubError, failedPrecondition } from "./errors.ts";
import type { BrokerObserver } from "./events.ts";
import { LIMITS } from "./limits.ts";
import type { MemoryBudget } from "./memory-budget.ts";
import type { HeapEntry } from "./heap.ts";
import type { Delivery, StoredMessage } from "./message.ts";
import { SECOND, SUBSCRIPTION_DEFAULTS, type SubscriptionResource } from "./resources.ts";
import { TimedHeap } from "./timed-heap.ts";

let ackSeq = 0;
/** Ack ids are unique across the process so a re-created subscription never honours old ones. */
const nextAckId = () => (++ackSeq).toString(36);

interface Delayed extends HeapEntry {
  release(): void;
}

export interface SubscriptionHooks {
  /** Forwards a message that ran out of delivery attempts; true when it was accepted. */
  deadLetter(sub: Subscription, msg: StoredMessage): boolean;
  /** Told of every message held and let go. */
  budget?: MemoryBudget;
}

export class Subscription {
  private backlog: Backlog;
  private leases = new Map<string, Lease>();
  private leaseHeap: TimedHeap<Lease>;
  private delayed: TimedHeap<Delayed>;
  private consumers: Consumer[] = [];
  private rr = 0;
  private seq = 0;
  private dispatching = false;
  private again = false;
  private fillTimer: unknown = null;
  /** Bytes this subscription accounts against the memory budget (every entry it holds). */
  private heldCost = 0;
  /** Set by the broker: false when a filter rejects the message. */
  matches: (msg: StoredMessage) => boolean = () => true;
  observer: BrokerObserver | null = null;

  constructor(
    public config: SubscriptionResource,
    private clock: Clock,
    private hooks: SubscriptionHooks,
    private fillWaitMs = 0,
  ) {
    this.backlog = new Backlog(config.enableMessageOrdering);
    this.leaseHeap = new TimedHeap<Lease>(clock, (lease, now) => this.leaseDue(lease, now));
    this.delayed = new TimedHeap<Delayed>(clock, (d) => d.release());
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

  /** Read-only state for inspection and metrics (never mutate what it yields). */
  view(): { waiting: Iterable<Entry>; oldest: Entry | undefined; leases: Iterable<Lease>; consumers: readonly Consumer[] } {
    const b = this.backlog;
    return { waiting: b.entries(), oldest: b.oldest(), leases: this.leases.values(), consumers: this.consumers };
  }

  /** Holds a message; `cost` is what it is accounted as against the memory budget. */
  enqueue(msg: StoredMessage, cost = 0): void {
    this.backlog.add({ msg, seq: this.seq++, attempts: 0, lease: null, keyQueue: null, cost });
    this.heldCost += cost;
    this.hooks.budget?.stored(cost);
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
    this.consumers.push(c);
    this.dispatch();
  }

  removeConsumer(c: Consumer): void {
    const i = this.consumers.indexOf(c);
    if (i >= 0) this.consumers.splice(i, 1);
  }

  /** A backpressured consumer can take messages again. */
  resume(c: Consumer): void {
    c.ready = true;
    this.dispatch();
  }

  /** Acknowledges; unknown or stale ack ids change nothing. Returns the ack ids that matched. */
  ack(ackIds: readonly string[]): string[] {
    const done: string[] = [];
    for (const id of ackIds) {
      const lease = this.leases.get(id);
      if (!lease) continue;
      this.endLease(lease);
      this.backlog.settled(lease.entry);
      this.letGo(lease.entry);
      this.observer?.acked(this.name, lease.entry.msg, id);
      done.push(id);
    }
    if (done.length) this.dispatch();
    return done;
  }

  /** Sets the deadline of leases; 0 seconds is a nack. Returns the ack ids that matched. */
  modifyAckDeadline(ackIds: readonly string[], seconds: number): string[] {
    const now = this.clock.now();
    const done: string[] = [];
    for (const id of ackIds) {
      const lease = this.leases.get(id);
      if (!lease) continue;
      done.push(id);
      if (seconds === 0) {
        this.observer?.nacked(this.name, lease.entry.msg, id);
        this.release(lease, now);
        continue;
      }
      const deadline = now + seconds * SECOND;
      lease.deadline = deadline;
      if (deadline < lease.key) this.leaseHeap.reschedule(lease, deadline);
    }
    // Only a nack frees room or returns messages; an extension (the clients' per-message lease
    // modack, the common case) has nothing to deliver.
    if (seconds === 0 && done.length) this.dispatch();
    return done;
  }

  /** Ends delivery to every consumer with `error` and drops all state (delete, detach). */
  close(error: PubSubError): void {
    for (const c of this.consumers.splice(0)) c.close(error);
    this.leaseHeap.clear();
    this.delayed.clear();
    this.leases.clear();
    this.backlog.clear();
    if (this.fillTimer !== null) this.clock.cancel(this.fillTimer);
    this.hooks.budget?.freed(this.heldCost);
    this.heldCost = 0;
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
    const retention = this.config.messageRetentionDuration;
    const deadline = now + c.ackDeadlineSeconds * SECOND;
    let run: KeyQueue | null = null;
    while (batch.length < limit) {
      if (maxOut && c.outstandingBytes + bytes >= maxOut) break;
      let e: Entry | undefined = this.backlog.next(now, run);
      if (!e && run) e = this.backlog.next(now, (run = null));
      if (!e) break;
      if (e.msg.publishTime + retention < now) {
        this.backlog.drop(e);
        this.letGo(e);
        continue;
      }
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
    const ackId = nextAckId();
    const lease: Lease = { ackId, entry: e, consumer: c, deadline, key: deadline, heapIndex: -1 };
    e.lease = lease;
    e.attempts++;
    this.leases.set(ackId, lease);
    this.leaseHeap.add(lease, deadline);
    c.outstanding++;
    c.outstandingBytes += e.msg.size;
    this.observer?.delivered(this.name, e.msg, ackId, e.attempts, deadline);
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
      this.observer?.expired(this.name, lease.entry.msg, lease.ackId);
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
    if (dl && entry.attempts >= dl.maxDeliveryAttempts && this.hooks.deadLetter(this, entry.msg)) {
      this.backlog.drop(entry);
      this.letGo(entry);
      return;
    }
    const notBefore = now + this.backoff(entry.attempts);
    const later = this.backlog.returnEntry(entry, notBefore, now);
    for (const e of later) if (e.lease) this.endLease(e.lease);
    if (notBefore > now) this.delay(entry, notBefore);
  }

  /** The subscription no longer holds the entry (acked, expired by retention, dead-lettered). */
  private letGo(entry: Entry): void {
    this.heldCost -= entry.cost;
    this.hooks.budget?.freed(entry.cost);
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
}

/**
 * One subscription, by composition: its config and identity, its Holdings (what it holds: held
 * list, backlog, backoff, retention), its Leases (what is out with a consumer), and delivery here:
 * the consumers it hands messages to. Delivery is event-driven: enqueue, ack, nack, expiry and a
 * consumer regaining room all call dispatch(). Every change of what it holds goes to the store.
 */
import type { Backlog, Entry, KeyQueue, Lease } from "./backlog.ts";
import type { Clock } from "../clock.ts";
import { Consumer, linkUnconfirmed, unlinkUnconfirmed } from "../delivery/consumer.ts";
import { PubSubError, failedPrecondition } from "../errors.ts";
import type { BrokerObserver } from "../events.ts";
import { Holdings } from "./holdings.ts";
import { EarlyResults } from "./early.ts";
import { Leases } from "./leases.ts";
import { SetAside, cameBack } from "./reoffer.ts";
import type { Delayed } from "./holdings.ts";
import type { Delivery, StoredMessage } from "../message.ts";
import { SECOND, SUBSCRIPTION_DEFAULTS, type SubscriptionResource } from "../resources.ts";
import type { EntryState, Store } from "../store/store.ts";
import type { Topic } from "../topic/topic.ts";
import type { DeliveryResult, DeliveryStage } from "../stages/stages.ts";
import type { TransformChain } from "../stages/transforms.ts";
import type { CausalWake } from "../topic/causal-wake.ts";

export interface SubscriptionHooks {
  /** Forwards a message that ran out of delivery attempts; true when it was accepted. */
  deadLetter(sub: Subscription, entry: Entry): boolean;
}

const NONE: readonly string[] = Object.freeze([]);

/** Messages one subscription prepares at once with an asynchronous stage; more wait in the backlog. */
export const MAX_PREPARING = 64;

/** What the operator surface reads of a subscription: never the live object. */
export interface SubscriptionView {
  readonly name: string;
  readonly config: Readonly<SubscriptionResource>;
  readonly backlogSize: number;
  readonly outstanding: number;
  readonly transform: TransformChain | null;
  readonly waiting: Iterable<Entry>;
  readonly oldest: Entry | undefined;
  readonly leases: Iterable<Lease>;
  readonly consumers: readonly Consumer[];
}

export class Subscription {
  readonly holdings: Holdings;
  readonly leases: Leases;
  /** The parts' structures the hot paths touch per message, held directly (the same objects). */
  private readonly backlog: Backlog;
  private readonly byAckId: Map<string, Lease>;
  private consumers: Consumer[] = [];
  private rr = 0;
  private dispatching = false;
  private again = false;
  private fillTimer: unknown = null;
  /** Wakes delivery when entries set aside from the stream they came back from may go to it (reoffer.ts). */
  private reoffer: Delayed = { key: 0, heapIndex: -1, release: () => this.dispatch() };
  /** Broker events; null (one check on the hot path) when nothing listens. */
  observer: BrokerObserver | null = null;
  /** The enabled message_transforms (the "transforms" delivery stage runs them); null for none. */
  transform: TransformChain | null = null;
  /** The delivery stages in order, composed (stages.ts); null for none: a message pays one check. */
  stage: DeliveryStage | null = null;
  /** Its topic while attached (null once the topic is deleted or the subscription detached). */
  topic: Topic<Subscription> | null = null;
  /** Last pull, stream, ack or modack (the expiration policy's clock). */
  lastActive: number;
  /** Messages from this seq on were published while it existed (a seek to a time may restore them). */
  readonly createdSeq: number;
  /** Hides just-published messages from streams and push until their Publish was answered. */
  causal: CausalWake | null = null;
  /** Preparations (asynchronous delivery stages) running, and the last token given to one. */
  private preparations = 0;
  private lastToken = 0;
  private readonly early = new EarlyResults();

  constructor(
    public config: SubscriptionResource,
    private clock: Clock,
    private store: Store,
    private hooks: SubscriptionHooks,
    private fillWaitMs = 0,
    createdSeq = store.nextSeq,
  ) {
    this.leases = new Leases(clock, (lease, now) => this.leaseDue(lease, now));
    this.holdings = new Holdings(this, this.leases, clock, store);
    this.backlog = this.holdings.backlog;
    this.byAckId = this.leases.byAckId;
    this.lastActive = clock.now();
    this.createdSeq = createdSeq;
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

  /** Takes the messages of a publish its filter accepts. */
  /** Returns what must settle before the Publish is answered: its eager delivery stage's runs (early.ts); null for none. */
  enqueue(msgs: readonly StoredMessage[]): Promise<unknown> | null {
    const stage = this.stage;
    if (stage === null || !stage.eager) {
      this.holdings.enqueue(msgs);
      return null;
    }
    const added: Entry[] = [];
    this.holdings.enqueue(msgs, added);
    return added.length ? this.early.start(stage, added) : null;
  }

  /** Rebuilds what a store kept from an earlier run. */
  restore(states: readonly EntryState[]): void {
    this.holdings.restore(states);
  }

  /** What it holds, in publish order (inspection; the store's rows mirror it). */
  entries(): Iterable<EntryState> {
    return this.holdings.entries();
  }

  /** The unacked messages it holds, in publish order (what a snapshot keeps). */
  unacked(): StoredMessage[] {
    return this.holdings.unacked();
  }

  /** Seek: see Holdings.resetTo; open streams get the unacked messages again at once. */
  resetTo(isUnacked: (m: StoredMessage) => boolean, restore: Iterable<StoredMessage>): void {
    this.holdings.resetTo(isUnacked, restore);
    this.dispatch();
  }

  /**
   * The one place its config changes after creation: stored, and observers hear of it.
   * `offTopic` takes it off its topic (the topic was deleted, or it was detached).
   */
  reconfigure(config: SubscriptionResource, offTopic = false): void {
    if (offTopic) this.topic = null;
    this.config = config;
    this.store.putSubscription(config, this.createdSeq);
    this.observer?.resourceChanged("subscription", "updated", this.name);
  }

  /** Retention or retain_acked_messages changed: apply the new values at once. */
  retentionChanged(): void {
    this.holdings.retentionChanged();
  }

  get hasConsumers(): boolean {
    return this.consumers.length > 0;
  }

  /** The read-only view for the operator surface: counts, waiting entries in publish order, leases, consumers. */
  view(): SubscriptionView {
    let oldest: Entry | undefined;
    for (const e of this.holdings.waiting()) {
      oldest = e;
      break;
    }
    return {
      name: this.name,
      config: this.config,
      backlogSize: this.backlogSize,
      outstanding: this.outstanding,
      transform: this.transform,
      waiting: this.holdings.waiting(),
      oldest,
      leases: this.leases.values(),
      consumers: this.consumers.slice(),
    };
  }

  /** Ends delivery to every consumer with `error`, keeping everything held (the server is stopping). */
  endConsumers(error: PubSubError): void {
    for (const c of this.consumers.splice(0)) c.close(error);
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

  /**
   * A stream ended: what it was sent but the client never acked or modacked runs out within
   * `graceMs` (it was most likely still in flight, for every official client modacks on receipt);
   * a modack or ack that still comes by a unary call in that time keeps or settles it as usual.
   * What the client touched keeps its deadline.
   */
  shortenUnconfirmed(c: Consumer, graceMs: number): void {
    const until = this.clock.now() + graceMs;
    let next: Lease | null;
    for (let lease = c.unconfirmed as Lease | null; lease; lease = next) {
      next = lease.nextUnconfirmed;
      lease.prevUnconfirmed = lease.nextUnconfirmed = null;
      if (lease.entry.lease !== lease || lease.deadline <= until) continue;
      lease.deadline = until;
      if (until < lease.key) this.leases.reschedule(lease, until);
    }
    c.unconfirmed = null;
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
      const lease = this.byAckId.get(ackIds[i]);
      if (!lease) {
        (invalid ??= []).push(ackIds[i]);
        continue;
      }
      const e = lease.entry;
      this.observer?.acked(this.name, e.msg, ackIds[i]);
      this.leases.end(lease);
      this.backlog.settled(e);
      if (keep) e.acked = true;
      else this.holdings.unhold(e);
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
      const lease = this.byAckId.get(ackIds[i]);
      if (!lease) {
        (invalid ??= []).push(ackIds[i]);
        continue;
      }
      if (seconds === 0) {
        this.observer?.nacked(this.name, lease.entry.msg, ackIds[i]);
        this.release(lease, now);
        nacked = true;
        continue;
      }
      unlinkUnconfirmed(lease);
      const deadline = now + seconds * SECOND;
      lease.deadline = deadline;
      if (deadline < lease.key) this.leases.reschedule(lease, deadline);
    }
    // Only a nack frees room or returns messages; an extension (the clients' per-message lease
    // modack, the common case) has nothing to deliver.
    if (nacked) this.dispatch();
    return invalid ?? NONE;
  }

  /** Ends delivery to every consumer with `error` and lets go of everything it holds (delete, detach). */
  close(error: PubSubError): void {
    for (const c of this.consumers.splice(0)) c.close(error);
    this.holdings.dropAll();
    if (this.fillTimer !== null) this.clock.cancel(this.fillTimer);
    this.fillTimer = null;
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
    const head = this.holdings.held.head;
    // The retention timer may not have fired yet: never deliver a message past retention.
    if (head && head.msg.publishTime + this.holdings.retentionMs <= now) this.holdings.expireOld();
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
    // message may take it over); one response also stays within its consumer's batch bytes.
    const maxOut = c.maxOutstandingBytes;
    let maxBytes: number | undefined;
    const deadline = now + c.ackDeadlineSeconds * SECOND;
    let run: KeyQueue | null = null;
    const hiddenFrom = c.oneShot || !this.causal ? Infinity : this.causal.hiddenFrom;
    let aside: SetAside | null = null;
    while (batch.length < limit) {
      if (maxOut && c.outstandingBytes + bytes >= maxOut) break;
      let e: Entry | undefined = this.backlog.next(now, run);
      if (!e && run) e = this.backlog.next(now, (run = null));
      if (!e) break;
      if (e.avoid !== null && (aside ??= new SetAside()).holds(e, c, now, run)) {
        if (aside.full) break;
        continue;
      }
      if (e.msg.seq >= hiddenFrom) {
        this.backlog.untake(e);
        break;
      }
      if (this.stage !== null && e.shown === null) {
        const ready = this.stage.eager ? this.early.ready(e, this.stage) : null;
        if (ready !== null) {
          if (!this.shownOr(e, ready, now)) continue;
        } else if (this.stage.prepare) {
          if (this.preparations >= MAX_PREPARING) {
            this.backlog.untake(e);
            break;
          }
          // Set aside, it holds its key back until prepared, so it must be the key's only one out:
          // one behind a message of this batch waits for that one to settle.
          if (run !== null) this.backlog.untake(e);
          else this.setAside(this.stage, e);
          run = null;
          continue;
        } else if (!this.runStage(this.stage, e, now)) continue;
      }
      const size = e.msg.size;
      if (batch.length > 0 && bytes + size > (maxBytes ??= c.maxBatchBytes())) {
        this.backlog.untake(e);
        break;
      }
      bytes += size;
      run = e.keyQueue;
      batch.push(this.lease(e, c, deadline));
    }
    if (aside?.restore(this.backlog) && (this.reoffer.heapIndex < 0 || aside.until < this.reoffer.key)) {
      this.holdings.delayed.reschedule(this.reoffer, aside.until);
    }
    return batch;
  }

  private lease(e: Entry, c: Consumer, deadline: number): Delivery {
    const ackId = this.store.nextAckId();
    const lease: Lease = { ackId, entry: e, consumer: c, deadline, key: deadline, heapIndex: -1, prevUnconfirmed: null, nextUnconfirmed: null };
    if (c.stream) linkUnconfirmed(lease);
    e.lease = lease;
    e.attempts++;
    this.leases.add(lease, deadline);
    c.outstanding++;
    c.outstandingBytes += e.msg.size;
    this.observer?.delivered(this.name, e.msg, ackId, e.attempts, deadline);
    return { ackId, message: e.shown ?? e.msg, deliveryAttempt: e.attempts };
  }

  /**
   * Runs the delivery stages on a message taken for its first delivery (Entry.shown keeps what they
   * made of it). False when it is not to be delivered: filtered (settled as acknowledged) or failed
   * (dead-lettered, or without a dead-letter topic returned like an expired delivery, after the ack
   * deadline or the backoff).
   */
  private runStage(stage: DeliveryStage, e: Entry, now: number): boolean {
    return this.shownOr(e, stage.apply(e.msg), now);
  }

  /** A stage's result for a message taken for its first delivery: kept to show (true), or not delivered. */
  private shownOr(e: Entry, r: DeliveryResult, now: number): boolean {
    if (typeof r !== "string") {
      e.shown = r;
      return true;
    }
    this.notDelivered(e, r, now);
    return false;
  }

  /**
   * A message taken for its first delivery waits outside the queues while the stage prepares it
   * (a model call); when that settles it is delivered, or filtered or failed as runStage would.
   * A seek puts set-aside entries back in the queues and clears their token: the answer that
   * comes later is disregarded, and the entry is prepared again when it is taken again.
   */
  private setAside(stage: DeliveryStage, e: Entry): void {
    this.backlog.setAside(e);
    const token = (e.preparing = ++this.lastToken);
    this.preparations++;
    (this.early.pending(e, stage) ?? stage.prepare!(e.msg)).then(
      (r) => this.prepared(e, token, r),
      () => this.prepared(e, token, "failed"),
    );
  }

  private prepared(e: Entry, token: number, r: DeliveryResult): void {
    this.preparations--;
    if (!e.gone && e.preparing === token) {
      e.preparing = 0;
      this.backlog.retake(e);
      if (typeof r !== "string") {
        e.shown = r;
        this.backlog.untake(e);
      } else this.notDelivered(e, r, this.clock.now());
    }
    this.dispatch();
  }

  /** A message the delivery stages filtered (settled as acknowledged) or failed (an attempt). */
  private notDelivered(e: Entry, r: "filtered" | "failed", now: number): void {
    if (r === "filtered") {
      this.backlog.settled(e);
      if (this.config.retainAckedMessages) {
        e.acked = true;
        this.store.updateEntries(this.name, [e]);
      } else {
        this.holdings.unhold(e);
        this.store.removeEntries(this.name, [e]);
      }
      return;
    }
    e.attempts++;
    if (this.config.deadLetterPolicy && this.deadLetter(e)) return;
    const notBefore = now + Math.max(this.backoff(e.attempts), this.config.ackDeadlineSeconds * SECOND);
    const later = this.backlog.returnEntry(e, notBefore, now, this.config.enableExactlyOnceDelivery);
    for (const x of later) if (x.lease) this.leases.end(x.lease);
    this.delay(e, notBefore);
  }

  private leaseDue(lease: Lease, now: number): void {
    if (lease.deadline > now) this.leases.rearm(lease, lease.deadline);
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
    if (lease.entry.lease === lease) this.leases.end(lease);
    const entry = lease.entry;
    const dl = this.config.deadLetterPolicy;
    if (dl && entry.attempts >= dl.maxDeliveryAttempts && this.deadLetter(entry)) return;
    const notBefore = now + this.backoff(entry.attempts);
    const later = this.backlog.returnEntry(entry, notBefore, now, this.config.enableExactlyOnceDelivery);
    cameBack(entry, lease.consumer, now);
    for (const e of later) {
      if (e.lease) this.leases.end(e.lease);
      cameBack(e, lease.consumer, now);
    }
    if (notBefore > now) this.delay(entry, notBefore);
  }

  /**
   * Forwards the entry to the dead-letter topic and lets go of it, in one store transaction: a
   * crash between the copy and the removal can neither lose the message nor duplicate it.
   * False (keep redelivering) when the dead-letter topic is gone.
   */
  private deadLetter(entry: Entry): boolean {
    return this.store.transaction(() => {
      if (!this.hooks.deadLetter(this, entry)) return false;
      this.backlog.drop(entry);
      this.holdings.unhold(entry);
      this.store.removeEntries(this.name, [entry]);
      return true;
    });
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
    this.holdings.delayed.add({ key: at, heapIndex: -1, release }, at);
  }
}

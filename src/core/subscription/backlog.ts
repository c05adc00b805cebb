/**
 * The messages of one subscription that wait for delivery. Without ordering it is a FIFO (with
 * redeliveries served first); with ordering each key has its own queue and is handed out only
 * while none of its messages is outstanding, so a key has at most one batch in flight.
 */
import { Deque } from "../deque.ts";
import type { HeapEntry } from "../heap.ts";
import type { StoredMessage } from "../message.ts";
import type { EntryState } from "../store/store.ts";

/**
 * One message as one subscription holds it: waiting (in the backlog), leased, or acked and kept
 * for retain_acked_messages. Entries also form the subscription's held list in publish order
 * (prev/next), which retention, snapshots and seek walk.
 */
export interface Entry extends EntryState {
  readonly msg: StoredMessage;
  /** What the subscription's transforms made of msg (null: not run yet, or none configured); every delivery shows it. */
  shown: StoredMessage | null;
  /**
   * Non-zero while an asynchronous delivery stage runs on it (the token of that run): the entry
   * is set aside, counted as waiting but in no queue (a keyed one stays first in its key's
   * leased list, holding the key back).
   */
  preparing: number;
  /** Deliveries so far. */
  attempts: number;
  acked: boolean;
  /** Dropped while a backlog queue still held it: skipped when reached. */
  gone: boolean;
  lease: Lease | null;
  /**
   * The stream it was last nacked on or expired from: other streams are offered it first, and
   * that one only from avoidUntil (subscription.ts REOFFER_MS).
   */
  avoid: import("../delivery/consumer.ts").Consumer | null;
  avoidUntil: number;
  keyQueue: KeyQueue | null;
  prev: Entry | null;
  next: Entry | null;
}

export function newEntry(msg: StoredMessage, attempts = 0, acked = false): Entry {
  return { msg, shown: null, preparing: 0, attempts, acked, gone: false, lease: null, avoid: null, avoidUntil: 0, keyQueue: null, prev: null, next: null };
}

export interface Lease extends HeapEntry {
  readonly ackId: string;
  /**
   * When the lease really ends. An extension only moves this; the heap key catches up when the
   * old key falls due, so a modack is O(1) instead of a heap re-position.
   */
  deadline: number;
  readonly entry: Entry;
  readonly consumer: import("../delivery/consumer.ts").Consumer;
  /** Links in its stream's list of leases the client has not touched yet (delivery/consumer.ts). */
  prevUnconfirmed: Lease | null;
  nextUnconfirmed: Lease | null;
}

export interface KeyQueue {
  readonly key: string;
  /** Waiting entries in seq order. */
  pending: Entry[];
  /** Outstanding entries in seq order. */
  leased: Entry[];
  /** Retry backoff: the key is held back until then. */
  notBefore: number;
  inReady: boolean;
}

export class Backlog {
  private fresh = new Deque<Entry>();
  private redeliver = new Deque<Entry>();
  private keys = new Map<string, KeyQueue>();
  private readyKeys = new Deque<KeyQueue>();
  /** Entries waiting (not leased), including held-back keys and delayed retries. */
  waiting = 0;

  constructor(private ordered: boolean) {}

  add(entry: Entry): void {
    this.waiting++;
    const key = entry.msg.orderingKey;
    if (!this.ordered || !key) return this.fresh.push(entry);
    let kq = this.keys.get(key);
    if (!kq) {
      kq = { key, pending: [], leased: [], notBefore: 0, inReady: false };
      this.keys.set(key, kq);
    }
    entry.keyQueue = kq;
    kq.pending.push(entry);
    this.markReady(kq);
  }

  /** The next entry to deliver, or undefined. Keyed entries come as a run of their key. */
  next(now: number, sameKeyOnly: KeyQueue | null): Entry | undefined {
    if (sameKeyOnly) return sameKeyOnly.pending.length ? this.takeFromKey(sameKeyOnly) : undefined;
    for (let kq = this.readyKeys.shift(); kq; kq = this.readyKeys.shift()) {
      kq.inReady = false;
      if (kq.pending.length && kq.leased.length === 0 && kq.notBefore <= now) return this.takeFromKey(kq);
    }
    let e = this.redeliver.shift() ?? this.fresh.shift();
    // Dropped entries were already taken off `waiting`.
    while (e?.gone) e = this.redeliver.shift() ?? this.fresh.shift();
    if (e) this.waiting--;
    return e;
  }

  /** A waiting entry leaves (retention, seek): O(1), or skipped later when not at a queue's head. */
  remove(entry: Entry): void {
    this.waiting--;
    entry.gone = true;
    const kq = entry.keyQueue;
    if (kq) {
      const i = kq.pending.indexOf(entry);
      if (i >= 0) kq.pending.splice(i, 1);
      else if (entry.preparing) this.settled(entry);
      if (kq.pending.length === 0 && kq.leased.length === 0) this.keys.delete(kq.key);
    } else if (this.fresh.peek() === entry) this.fresh.shift();
    else if (this.redeliver.peek() === entry) this.redeliver.shift();
  }

  /** Puts back an entry that was taken but could not be delivered (flow control). */
  untake(entry: Entry): void {
    this.waiting++;
    const kq = entry.keyQueue;
    if (!kq) return this.redeliver.unshift(entry);
    kq.leased.splice(kq.leased.indexOf(entry), 1);
    kq.pending.unshift(entry);
    this.markReady(kq);
  }

  /** An entry just taken waits outside the queues while a delivery stage prepares it (still counted as waiting). */
  setAside(_entry: Entry): void {
    this.waiting++;
  }

  /** A set-aside entry is taken again, to be settled like one just taken (then untake() or returnEntry()). */
  retake(_entry: Entry): void {
    this.waiting--;
  }

  /** A delivered entry was acked (or dead-lettered); its key may be free again. */
  settled(entry: Entry): void {
    const kq = entry.keyQueue;
    if (!kq) return;
    const i = kq.leased.indexOf(entry);
    if (i >= 0) kq.leased.splice(i, 1);
    if (kq.leased.length === 0) {
      if (kq.pending.length) this.markReady(kq);
      else this.keys.delete(kq.key);
    }
  }

  /**
   * A delivered entry comes back (nack or expiry). For a key, every later outstanding entry of
   * that key comes back with it so the key is redelivered in order; those are returned so the
   * caller can end their leases. With `keepLeases` (exactly-once: no redelivery while a lease is
   * valid) they stay out, and the key waits until each is acked, nacked or expired, then goes
   * again in order from its oldest unacked message.
   */
  returnEntry(entry: Entry, notBefore: number, now: number, keepLeases = false): Entry[] {
    const kq = entry.keyQueue;
    if (!kq) {
      this.waiting++;
      // One held back by retry backoff is queued by requeue() when its time comes.
      if (notBefore <= now) this.redeliver.push(entry);
      return [];
    }
    const i = kq.leased.indexOf(entry);
    const back = i < 0 ? [entry] : keepLeases ? kq.leased.splice(i, 1) : kq.leased.splice(i);
    const later = back.filter((e) => e !== entry);
    this.waiting += back.length;
    kq.pending = back.concat(kq.pending).sort((a, b) => a.msg.seq - b.msg.seq);
    kq.notBefore = Math.max(kq.notBefore, notBefore);
    if (kq.leased.length === 0) this.markReady(kq);
    return later;
  }

  /** An entry taken from the backlog is dropped (retention, dead letter). */
  drop(entry: Entry): void {
    this.settled(entry);
  }

  /** An unkeyed entry held back by retry backoff is due (unless it was dropped meanwhile). */
  requeue(entry: Entry): void {
    if (!entry.gone) this.redeliver.push(entry);
  }

  /** Keys held back until `notBefore` become ready (called by the retry timer). */
  releaseKey(kq: KeyQueue): void {
    if (kq.leased.length === 0 && kq.pending.length) this.markReady(kq);
  }

  clear(): void {
    this.fresh.clear();
    this.redeliver.clear();
    this.keys.clear();
    this.readyKeys.clear();
    this.waiting = 0;
  }

  private takeFromKey(kq: KeyQueue): Entry {
    const e = kq.pending.shift()!;
    kq.leased.push(e);
    this.waiting--;
    return e;
  }

  /** A key held back by `notBefore` is skipped by next(); its retry timer calls releaseKey(). */
  private markReady(kq: KeyQueue): void {
    if (kq.inReady || kq.leased.length) return;
    kq.inReady = true;
    this.readyKeys.push(kq);
  }
}

/**
 * Expiration policy: a subscription with no activity (pull, stream, ack, modack) for its ttl is
 * deleted. One deadline heap holds every subscription's due time; activity only stamps
 * `lastActive`, and a due entry re-arms itself at the later time it finds (never polling).
 */
import type { Clock } from "../clock.ts";
import type { HeapEntry } from "../heap.ts";
import type { Lifecycle } from "../lifecycle.ts";
import type { SubscriptionResource } from "../resources.ts";
import type { Subscription } from "./subscription.ts";
import { TimedHeap } from "../timed-heap.ts";

interface Watch extends HeapEntry {
  readonly sub: Subscription;
}

export class Expirations implements Lifecycle<Subscription, SubscriptionResource> {
  private heap: TimedHeap<Watch>;
  private watches = new Map<Subscription, Watch>();

  constructor(
    clock: Clock,
    private expire: (sub: Subscription) => void,
  ) {
    this.heap = new TimedHeap<Watch>(clock, (w, now) => this.due(w, now));
  }

  created(sub: Subscription): void {
    this.watch(sub);
  }

  restored(sub: Subscription): void {
    this.watch(sub);
  }

  updated(sub: Subscription): void {
    this.watch(sub);
  }

  removed(sub: Subscription): void {
    this.unwatch(sub);
  }

  /** Arms (or re-arms, or disarms) a subscription per its current expiration policy. */
  watch(sub: Subscription): void {
    const ttl = sub.config.expirationPolicy?.ttl;
    let w = this.watches.get(sub);
    if (!ttl) return this.unwatch(sub);
    if (!w) this.watches.set(sub, (w = { sub, key: 0, heapIndex: -1 }));
    this.heap.reschedule(w, sub.lastActive + ttl);
  }

  unwatch(sub: Subscription): void {
    const w = this.watches.get(sub);
    if (!w) return;
    this.heap.remove(w);
    this.watches.delete(sub);
  }

  clear(): void {
    this.heap.clear();
    this.watches.clear();
  }

  private due(w: Watch, now: number): void {
    const sub = w.sub;
    const ttl = sub.config.expirationPolicy?.ttl;
    if (!ttl) return void this.watches.delete(sub);
    // An open stream is activity for as long as it stays open.
    if (sub.hasConsumers) sub.lastActive = now;
    const at = sub.lastActive + ttl;
    if (at > now) return this.heap.add(w, at);
    this.watches.delete(sub);
    this.expire(sub);
  }
}

/**
 * A subscription's leases: the deliveries out with a consumer, by ack id, and a deadline heap
 * (one timer) that hands each to `due` when its deadline key passes.
 */
import type { Lease } from "./backlog.ts";
import type { Clock } from "../clock.ts";
import { unlinkUnconfirmed } from "../delivery/consumer.ts";
import { TimedHeap } from "../timed-heap.ts";

export class Leases {
  /** By ack id; read directly on the ack and modack paths (one lookup, no call). */
  readonly byAckId = new Map<string, Lease>();
  private heap: TimedHeap<Lease>;

  constructor(clock: Clock, due: (lease: Lease, now: number) => void) {
    this.heap = new TimedHeap<Lease>(clock, due);
  }

  get size(): number {
    return this.byAckId.size;
  }

  get(ackId: string): Lease | undefined {
    return this.byAckId.get(ackId);
  }

  values(): IterableIterator<Lease> {
    return this.byAckId.values();
  }

  add(lease: Lease, deadline: number): void {
    this.byAckId.set(lease.ackId, lease);
    this.heap.add(lease, deadline);
  }

  /** Its deadline moved earlier than its key: the heap must see it now. */
  reschedule(lease: Lease, deadline: number): void {
    this.heap.reschedule(lease, deadline);
  }

  /** Its key passed but its deadline was extended: it waits again. */
  rearm(lease: Lease, deadline: number): void {
    this.heap.add(lease, deadline);
  }

  /** The lease is over (ack, nack, expiry, retention): its consumer has room for one more. */
  end(lease: Lease): void {
    unlinkUnconfirmed(lease);
    this.byAckId.delete(lease.ackId);
    this.heap.remove(lease);
    lease.entry.lease = null;
    lease.consumer.outstanding--;
    lease.consumer.outstandingBytes -= lease.entry.msg.size;
  }

  /** Seek: every lease ends, consumers get their room back. */
  endAll(): void {
    this.heap.clear();
    for (const lease of [...this.byAckId.values()]) this.end(lease);
  }

  /** Delete, detach: the consumers are closed with it, so nothing is given back. */
  clear(): void {
    this.heap.clear();
    this.byAckId.clear();
  }
}

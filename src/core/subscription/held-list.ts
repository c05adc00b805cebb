/**
 * The entries a subscription holds, in publish order, as an intrusive doubly-linked list: O(1)
 * append and unlink, so an ack in the middle frees its entry at once, while retention reads the
 * oldest at the head and snapshots and seeks walk the whole in order.
 */
import type { Entry } from "./backlog.ts";

export class HeldList {
  head: Entry | null = null;
  tail: Entry | null = null;
  size = 0;

  push(e: Entry): void {
    e.prev = this.tail;
    e.next = null;
    if (this.tail) this.tail.next = e;
    else this.head = e;
    this.tail = e;
    this.size++;
  }

  unlink(e: Entry): void {
    if (e.prev) e.prev.next = e.next;
    else this.head = e.next;
    if (e.next) e.next.prev = e.prev;
    else this.tail = e.prev;
    e.prev = e.next = null;
    this.size--;
  }

  /** Empties the list; returns its entries in order. */
  clear(): Entry[] {
    const all = [...this];
    this.head = this.tail = null;
    this.size = 0;
    for (const e of all) e.prev = e.next = null;
    return all;
  }

  *[Symbol.iterator](): Iterator<Entry> {
    for (let e = this.head; e; ) {
      const next = e.next;
      yield e;
      e = next;
    }
  }
}

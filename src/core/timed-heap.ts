import type { Clock } from "./clock.ts";
import { DeadlineTimer } from "./deadline-timer.ts";
import { MinHeap, type HeapEntry } from "./heap.ts";

/**
 * A deadline-ordered heap with a single clock timer armed for its earliest entry. Entries whose
 * key is due are handed to `onDue` in key order; nothing scans entries that are not due.
 */
export class TimedHeap<T extends HeapEntry> {
  private heap = new MinHeap<T>();
  private timer: DeadlineTimer;

  constructor(
    private clock: Clock,
    private onDue: (entry: T, now: number) => void,
  ) {
    this.timer = new DeadlineTimer(clock, () => {
      this.runDue();
      const next = this.heap.peek();
      if (next) this.timer.armAt(next.key);
    });
  }

  get size(): number {
    return this.heap.size;
  }

  add(entry: T, at: number): void {
    entry.key = at;
    this.heap.push(entry);
    this.timer.armAt(at);
  }

  /** Moves an entry to a new due time (it is added if not present). */
  reschedule(entry: T, at: number): void {
    this.heap.update(entry, at);
    this.timer.armAt(at);
  }

  remove(entry: T): void {
    this.heap.remove(entry);
    // A timer armed for a removed entry fires harmlessly and re-arms for what is left.
  }

  /** Fires everything due now; the core calls it before decisions that depend on expiry. */
  runDue(now = this.clock.now()): void {
    for (let top = this.heap.peek(); top && top.key <= now; top = this.heap.peek()) {
      this.heap.pop();
      this.onDue(top, now);
    }
  }

  /** Removes every entry without firing; returns them. */
  clear(): T[] {
    this.timer.cancel();
    return this.heap.clear();
  }
}

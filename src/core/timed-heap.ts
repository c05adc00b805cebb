import type { Clock } from "./clock.ts";
import { MinHeap, type HeapEntry } from "./heap.ts";

/**
 * A deadline-ordered heap with a single clock timer armed for its earliest entry. Entries whose
 * key is due are handed to `onDue` in key order; nothing scans entries that are not due.
 */
export class TimedHeap<T extends HeapEntry> {
  private heap = new MinHeap<T>();
  private timer: unknown = null;
  private armedAt = Infinity;

  constructor(
    private clock: Clock,
    private onDue: (entry: T, now: number) => void,
  ) {}

  get size(): number {
    return this.heap.size;
  }

  add(entry: T, at: number): void {
    entry.key = at;
    this.heap.push(entry);
    if (at < this.armedAt) this.arm(at);
  }

  /** Moves an entry to a new due time (it is added if not present). */
  reschedule(entry: T, at: number): void {
    this.heap.update(entry, at);
    if (at < this.armedAt) this.arm(at);
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
    this.disarm();
    return this.heap.clear();
  }

  private arm(at: number): void {
    this.disarm();
    this.armedAt = at;
    this.timer = this.clock.schedule(at, () => {
      this.timer = null;
      this.armedAt = Infinity;
      this.runDue();
      const next = this.heap.peek();
      if (next) this.arm(next.key);
    });
  }

  private disarm(): void {
    if (this.timer !== null) this.clock.cancel(this.timer);
    this.timer = null;
    this.armedAt = Infinity;
  }
}

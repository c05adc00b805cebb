/**
 * The server's clock: the wall clock ("system") or a test clock ("manual") that moves only when
 * told to, switchable at run time. Every timer the core schedules lives in one heap here, so a
 * timer scheduled under either mode fires at its instant under the other: in system mode one
 * real timer is armed for the earliest entry; in manual mode advance() and set() fire them.
 *
 * Time never goes backwards: switching to system keeps the current instant (an offset from the
 * wall clock), and set() refuses an earlier instant, because leases, backoffs and publish times
 * all assume a monotonic clock.
 */
import type { Clock } from "../core/clock.ts";
import { MinHeap, type HeapEntry } from "../core/heap.ts";
import { log } from "./log.ts";

export type ClockMode = "system" | "manual";

interface Timer extends HeapEntry {
  fn: () => void;
  seq: number;
}

/** Most timers one advance may fire, so a timer that re-schedules itself at "now" cannot hang it. */
const MAX_FIRINGS = 1_000_000;

export class SwitchableClock implements Clock {
  private heap = new MinHeap<Timer>();
  private seq = 0;
  private real: ReturnType<typeof setTimeout> | null = null;
  private realAt = Infinity;
  /** Manual mode: the current instant. System mode: added to Date.now(). */
  private manualNow = 0;
  private offset = 0;
  private current: ClockMode = "system";

  constructor(mode: ClockMode = "system", private wall: () => number = Date.now) {
    if (mode === "manual") this.setMode("manual");
  }

  get mode(): ClockMode {
    return this.current;
  }

  get pendingTimers(): number {
    return this.heap.size;
  }

  now(): number {
    return this.current === "manual" ? this.manualNow : this.wall() + this.offset;
  }

  schedule(atMs: number, fn: () => void): unknown {
    const timer: Timer = { key: atMs, heapIndex: -1, fn, seq: this.seq++ };
    this.heap.push(timer);
    if (this.current === "system" && atMs < this.realAt) this.arm();
    return timer;
  }

  cancel(handle: unknown): void {
    // A real timer armed for it fires harmlessly and re-arms for what is left.
    this.heap.remove(handle as Timer);
  }

  setMode(mode: ClockMode): void {
    if (mode === this.current) return;
    const at = this.now();
    this.current = mode;
    if (mode === "manual") {
      this.manualNow = at;
      this.disarm();
    } else {
      this.offset = at - this.wall();
      this.arm();
    }
  }

  /**
   * Moves time forward by `ms` (either mode), firing every timer that falls due in deadline order;
   * while one fires, the clock reads its deadline, as if time had passed for real.
   */
  advance(ms: number): number {
    if (!(ms >= 0)) throw new RangeError("the clock only moves forward");
    const target = this.now() + ms;
    const fired = this.fireDue(target);
    if (target > this.now()) this.moveTo(target);
    if (this.current === "system") this.arm();
    return fired;
  }

  /** Moves time forward to the instant `atMs`; an earlier instant is refused. */
  set(atMs: number): number {
    return this.advance(atMs - this.now());
  }

  private moveTo(at: number): void {
    if (this.current === "manual") this.manualNow = at;
    else this.offset = at - this.wall();
  }

  /** Fires timers due by `until` earliest first; returns how many fired. */
  private fireDue(until: number): number {
    let fired = 0;
    for (let t = this.heap.peek(); t && t.key <= until && fired < MAX_FIRINGS; t = this.heap.peek()) {
      if (t.key > this.now()) this.moveTo(t.key);
      this.heap.pop();
      fired++;
      // One timer's failure (a store write the disk refused) must not stop the others, nor
      // leave the real timer unarmed: every later lease, retry and expiry would wait forever.
      try {
        t.fn();
      } catch (e) {
        log.error("a timer failed (the others go on)", e);
      }
    }
    return fired;
  }

  private arm(): void {
    this.disarm();
    const top = this.heap.peek();
    if (!top) return;
    this.realAt = top.key;
    // Capped so a far deadline does not overflow setTimeout's 32-bit delay.
    const delay = Math.min(Math.max(0, top.key - this.now()), 2 ** 31 - 1);
    this.real = setTimeout(() => {
      this.real = null;
      this.realAt = Infinity;
      this.fireDue(this.now());
      this.arm();
    }, delay);
    (this.real as { unref?: () => void }).unref?.();
  }

  private disarm(): void {
    if (this.real !== null) clearTimeout(this.real);
    this.real = null;
    this.realAt = Infinity;
  }
}

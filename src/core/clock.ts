/** Time is a parameter of the core: the server passes a system clock, tests a manual one. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once at or after `atMs`; returns a handle for cancel(). */
  schedule(atMs: number, fn: () => void): unknown;
  cancel(handle: unknown): void;
}

interface ManualTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that moves only when told to; timers fire in deadline order during advance(). */
export class ManualClock implements Clock {
  private timers: ManualTimer[] = [];
  private seq = 0;

  constructor(private current = 1_700_000_000_000) {}

  now(): number {
    return this.current;
  }

  schedule(atMs: number, fn: () => void): unknown {
    const timer = { at: atMs, seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return timer;
  }

  cancel(handle: unknown): void {
    (handle as ManualTimer).cancelled = true;
  }

  /** Moves time forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers.splice(this.timers.indexOf(due), 1);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
  }

  pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}

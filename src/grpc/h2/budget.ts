/**
 * One attack budget of a connection (connection.ts): so many events per window of time, plus
 * what the client earned in that window by being useful. The clock is read only once the count
 * is spent, so the hot path pays an increment.
 */
export class Budget {
  private count = 0;
  private earned = 0;
  private since: number;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    now: number,
  ) {
    this.since = now;
  }

  /** Room for `n` more events in this window (work the client had done for it). */
  earn(n: number): void {
    this.earned += n;
  }

  /** Counts one event: false when the budget was spent within its window. */
  spend(): boolean {
    if (++this.count <= this.limit + this.earned) return true;
    const now = performance.now();
    if (now - this.since < this.windowMs) return false;
    this.since = now;
    this.count = 0;
    this.earned = 0;
    return true;
  }
}

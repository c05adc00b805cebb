import type { Clock } from "./clock.ts";

/**
 * One clock timer kept for the earliest instant asked for: asking for a later instant while an
 * earlier one is armed changes nothing, so callers re-arm freely and never hold two timers.
 */
export class DeadlineTimer {
  private handle: unknown = null;
  private at = Infinity;

  constructor(
    private clock: Clock,
    private fire: () => void,
  ) {}

  get armed(): boolean {
    return this.handle !== null;
  }

  /** Arms for `at` unless an instant no later than it is armed already. */
  armAt(at: number): void {
    if (at >= this.at) return;
    this.cancel();
    this.at = at;
    this.handle = this.clock.schedule(at, () => {
      this.handle = null;
      this.at = Infinity;
      this.fire();
    });
  }

  cancel(): void {
    if (this.handle !== null) this.clock.cancel(this.handle);
    this.handle = null;
    this.at = Infinity;
  }
}

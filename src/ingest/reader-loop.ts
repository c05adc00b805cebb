/**
 * What a stream reader is (its contract with stream-imports.ts, here so the readers and it import
 * no cycle) and what the readers share: a session (connect, then read until something fails) run
 * again and again, the source's state set from each failure, and a backoff on the emulator's
 * clock between tries (250 ms doubling to 5 s; back to 250 ms once a session gets going).
 */
import type { Clock } from "../core/clock.ts";
import type { MessageInput } from "../core/message.ts";

/** One reader of one import topic's source. */
export interface SourceReader {
  stop(): void;
}

/** One record read, as a message (null when it makes none), and the position after it. */
export interface ReadRecord {
  message: MessageInput | null;
  next: string;
}

/** What a reader is given: its positions, publishing, its state, the clock for backoff. */
export interface ReaderContext {
  readonly clock: Clock;
  /** Where a partition or shard stands (the position to read next); undefined before its first record. */
  position(part: string): string | undefined;
  /**
   * Publishes the records' messages in order and records the position after the last one taken.
   * Returns how many records were taken: fewer than given when the broker cannot take messages
   * now (memory budget), and the reader reads again from the returned record's position later.
   */
  deliver(part: string, records: readonly ReadRecord[]): number;
  /** The source's state, in its own enum (ACTIVE, TOPIC_NOT_FOUND, …). */
  setState(state: string): void;
  /** Records skipped (not convertible, refused by the topic): counted, and logged as platform_logs_settings asks. */
  failed(count: number, why: string): void;
  /** False once this reader was replaced or stopped. */
  live(): boolean;
}

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5000;

export abstract class ReaderLoop implements SourceReader {
  private timer: unknown = null;
  private wake: (() => void) | null = null;
  private stopped = false;
  protected backoff = MIN_BACKOFF_MS;

  constructor(protected ctx: ReaderContext) {}

  /** Connects and reads until it fails (throws) or the reader stops (returns). */
  protected abstract session(): Promise<void>;
  /** The source's state for a failure; null leaves it as it is (a failure that says nothing of the source). */
  protected abstract stateOf(e: unknown): string | null;
  /** Lets go of connections (after a failure, and at the end). */
  protected abstract release(): Promise<void>;

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.ctx.clock.cancel(this.timer);
    this.wake?.();
    void this.release();
  }

  async run(): Promise<void> {
    while (this.running()) {
      try {
        await this.session();
      } catch (e) {
        if (!this.running()) break;
        const state = this.stateOf(e);
        if (state) this.ctx.setState(state);
        await this.release();
        await this.sleep(this.backoff);
        this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
      }
    }
    await this.release();
  }

  protected running(): boolean {
    return !this.stopped && this.ctx.live();
  }

  /** The session reads: ACTIVE, and the next failure backs off from the start again. */
  protected active(): void {
    this.ctx.setState("ACTIVE");
    this.backoff = MIN_BACKOFF_MS;
  }

  protected sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = this.ctx.clock.schedule(this.ctx.clock.now() + ms, () => {
        this.timer = null;
        resolve();
      });
    });
  }
}

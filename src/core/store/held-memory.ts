/**
 * The held-memory port: what a store keeps of its messages in memory, apart from the storage
 * contract (store.ts). The memory budget reads it (HeldSource), the server tunes it (views kept
 * for a second on a real clock) and the metrics report it. The in-memory store implements it;
 * a durable store answers it from the in-memory store it holds.
 */
import type { Clock } from "../clock.ts";
import type { HeldSource } from "../memory-budget.ts";
import type { Store } from "./store.ts";

export interface HeldMemory extends HeldSource {
  /** Bytes of request buffers kept alive by held messages' data views (see held-views.ts). */
  readonly pinnedBytes: number;
  /**
   * Lets held messages' data stay views into their requests for a while on `clock` (real time);
   * until called, they are copied out the moment they are held. Null stops it. `collect` asks
   * the runtime for a collection once a burst's requests have been copied out.
   */
  keepViews(clock: Clock | null, collect?: () => void): void;
}

/** What a broker is built on: a store, and the memory its messages are held in. */
export type HeldStore = Store & HeldMemory;

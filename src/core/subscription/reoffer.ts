/**
 * Where a nacked or expired message goes next. A client that nacks the messages it holds as it
 * closes a stream, or a stream whose reader is gone while its requests (keepalive pings) still
 * flow, would get the message back in the same instant on the same stream, and nack it or lose it
 * again. So a message that comes back is offered to the subscription's other streams first, and to
 * the stream it came back from only REOFFER_MS later: no guarantee of the service is touched
 * (delivery stays at least once, order per key is kept), and on one stream a nack is redelivered
 * after REOFFER_MS instead of at once — less than a network round trip to the real service adds
 * to a nack's redelivery.
 */
import type { Backlog, Entry, KeyQueue } from "./backlog.ts";
import type { Consumer } from "../delivery/consumer.ts";

export const REOFFER_MS = 100;
/** A take stops looking past entries kept from its stream after this many (a bound on the work). */
const MAX_SKIPPED = 64;

/** Marks an entry that came back from `from` (a nack or an expiry). */
export function cameBack(e: Entry, from: Consumer, now: number): void {
  e.avoid = from;
  e.avoidUntil = now + REOFFER_MS;
}

/**
 * Entries one take set aside because they came back from its stream; put back, in their order,
 * when the take ends. `run` is the key being delivered as a run (its later entries follow its head).
 */
export class SetAside {
  private entries: Entry[] | null = null;
  /** The earliest time a set-aside entry may go to its stream. */
  until = Infinity;

  /** Whether `e` must not go to `c` yet (then it is held here); clears a mark that has run out. */
  holds(e: Entry, c: Consumer, now: number, run: KeyQueue | null): boolean {
    if (e.avoid === null || (run !== null && e.keyQueue === run)) return false;
    if (e.avoid !== c || now >= e.avoidUntil) {
      e.avoid = null;
      return false;
    }
    (this.entries ??= []).push(e);
    this.until = Math.min(this.until, e.avoidUntil);
    return true;
  }

  /** Whether the take should stop looking (too many set aside). */
  get full(): boolean {
    return (this.entries?.length ?? 0) >= MAX_SKIPPED;
  }

  /** Puts every set-aside entry back where it was; returns whether there were any. */
  restore(backlog: Backlog): boolean {
    const es = this.entries;
    if (!es) return false;
    for (let i = es.length - 1; i >= 0; i--) backlog.untake(es[i]);
    this.entries = null;
    return true;
  }
}

/**
 * Causal delivery: a message a publish stored is not sent to a streaming or push subscriber until
 * the publisher has its answer. The real service never delivers a message before its Publish round
 * trip ends, and clients' tests rely on it (`id = await publish()`, then wait for the message whose
 * id is id). The transport answers a Publish in the tick that ran it, so the subscriptions are
 * woken by a real timer a moment later; until then the new messages are hidden from server-sent
 * deliveries (`hiddenFrom`), whatever else wakes a subscription (an ack freeing room, a stream
 * draining). A unary Pull sees them at once: it was sent, so the answer may already be in hand.
 * Wakes are coalesced: one pending deferral for every publish in between, whatever the rate.
 */
/** What a publish wakes (a subscription; named here so this file imports nothing). */
export interface Wakeable {
  published(): void;
}

/** Runs `fn` later, outside the current tick (a real timer: the manual clock does not drive it). */
export type Defer = (fn: () => void) => void;

export class CausalWake {
  /** Fed by publishes before the armed deferral: woken when it runs. */
  private due = new Set<Wakeable>();
  /** Fed by publishes since it was armed: they wait a whole deferral of their own. */
  private later = new Set<Wakeable>();
  private laterFrom = Infinity;
  private armed = false;
  /** The first store seq not yet shown to server-sent deliveries; Infinity when all are shown. */
  hiddenFrom = Infinity;

  constructor(private readonly defer: Defer) {}

  /** Hides the messages from `firstSeq` on and wakes `subs` after a deferral. */
  add(subs: Iterable<Wakeable>, firstSeq: number): void {
    const into = this.armed ? this.later : this.due;
    let fed = false;
    for (const s of subs) {
      into.add(s);
      fed = true;
    }
    if (!fed) return;
    if (this.armed) {
      if (firstSeq < this.laterFrom) this.laterFrom = firstSeq;
      return;
    }
    this.hiddenFrom = firstSeq;
    this.armed = true;
    this.defer(this.flush);
  }

  private flush = (): void => {
    const subs = [...this.due];
    this.due.clear();
    if (this.later.size > 0) {
      [this.due, this.later] = [this.later, this.due];
      this.hiddenFrom = this.laterFrom;
      this.laterFrom = Infinity;
      this.defer(this.flush);
    } else {
      this.armed = false;
      this.hiddenFrom = Infinity;
    }
    for (const s of subs) s.published();
  };
}

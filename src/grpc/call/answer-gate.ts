/**
 * Causal delivery's deferral on the raw HTTP/2 server: the core's CausalWake hides new messages
 * from server-sent deliveries until its deferral runs, and this runs it once the publishers have
 * read their answers, not after a guessed delay. After a Publish's trailers are queued on its
 * connection, a PING follows them (one outstanding per connection; answers queued while it is out
 * wait for the next). A client's HTTP/2 layer ACKs a PING while parsing the read that held it, so
 * once every connection that answered a Publish in a deferral's window has ACKed a PING sent after
 * those answers, the client has run its publish continuations before it reads a delivery from
 * another socket (docs/delivery-timing.md). Bounded: a deferral runs after CAP_MS whatever the
 * ACKs (a client that does not read). A window with no answer on this server (REST, the test API,
 * an answer held by flow control or a transform) waits the fallback timer instead, as before.
 */

/** What a PING goes out on: an HTTP/2 connection of the raw server (h2/connection.ts). */
export interface Pinger {
  /** Sends a PING after what is queued; `onAck` runs on its ACK or when the connection is gone. False while one is out. */
  pingAfter(onAck: () => void): boolean;
}

/** Longest a deferral waits for ACKs. */
export const CAP_MS = 100;

interface Conn {
  out: boolean;
  /** The oldest answer not covered by an ACKed PING, and the first answered since the PING out was sent. */
  oldest: number;
  firstAfter: number;
}

interface Pending {
  fn: () => void;
  /** Answers up to this seq must be ACKed; -1 until the window closes (the tick after defer). */
  upTo: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class AnswerGate {
  private seq = 0;
  private windowEnd = 0;
  private readonly conns = new Map<Pinger, Conn>();
  private readonly pending = new Set<Pending>();

  /** @param fallback the deferral for a window with no answer here (the --causal-delay-ms timer). */
  constructor(private readonly fallback: (fn: () => void) => void) {}

  /** A Publish's answer was queued on `p`. */
  answered(p: Pinger): void {
    const seq = ++this.seq;
    let c = this.conns.get(p);
    if (!c) this.conns.set(p, (c = { out: false, oldest: Infinity, firstAfter: Infinity }));
    if (c.out) {
      if (c.firstAfter === Infinity) c.firstAfter = seq;
    } else {
      if (c.oldest === Infinity) c.oldest = seq;
      this.send(p, c);
    }
  }

  /** The core's Defer. */
  defer = (fn: () => void): void => {
    const entry: Pending = { fn, upTo: -1, timer: undefined };
    // The Publish that armed it is answered later in this tick: the window closes after it.
    setImmediate(() => {
      const from = this.windowEnd;
      this.windowEnd = entry.upTo = this.seq;
      if (entry.upTo === from) return this.fallback(fn);
      this.pending.add(entry);
      entry.timer = setTimeout(() => this.run(entry), CAP_MS);
      this.check();
    });
  };

  private send(p: Pinger, c: Conn): void {
    c.out = true;
    if (!p.pingAfter(() => this.acked(p, c))) this.acked(p, c);
  }

  private acked(p: Pinger, c: Conn): void {
    c.out = false;
    c.oldest = c.firstAfter;
    c.firstAfter = Infinity;
    if (c.oldest === Infinity) this.conns.delete(p);
    else this.send(p, c);
    this.check();
  }

  private check(): void {
    if (this.pending.size === 0) return;
    let oldest = Infinity;
    for (const c of this.conns.values()) if (c.oldest < oldest) oldest = c.oldest;
    for (const e of this.pending) if (e.upTo < oldest) this.run(e);
  }

  private run(e: Pending): void {
    if (!this.pending.delete(e)) return;
    clearTimeout(e.timer);
    e.fn();
  }
}

/**
 * The memory budget (--max-memory): held messages are accounted where the store holds and
 * releases them (its heldMessages / heldBytes), and Publish is refused with RESOURCE_EXHAUSTED before they would pass it — so the
 * process refuses work instead of being killed. Deliveries, acks and nacks never consult it:
 * they are how memory is given back. A second guard samples the process's resident memory
 * (never per message) for what the accounting cannot see.
 */
import { PubSubError } from "./errors.ts";

/** Bookkeeping a stored message costs beyond its bytes (object, id, buffer), measured ≈ 330 B (bench/held-memory.ts). */
export const MESSAGE_OVERHEAD = 400;
/** What a subscription's hold on a message costs (entry, queue slot), measured ≈ 65 B; counted once a message. */
export const ENTRY_OVERHEAD = 100;
/** Share of the budget held messages may take; the rest is the runtime, requests in flight, garbage. */
export const HELD_SHARE = 0.5;
/** Resident memory is sampled at most this often, and only while publishes come in. */
const SAMPLE_MS = 100;
/** A full collection is asked for at most this often while resident memory is over the budget. */
const RECLAIM_MS = 5000;
/** Past its limit by this factor a gauge refuses every publish, held room or not. */
const GAUGE_HARD = 1.05;
/** Of the held bytes when a gauge first reads over its limit: what may be held again while it stays over. */
const GAUGE_ROOM = 0.75;

export interface MemoryBudgetOptions {
  /** The memory the process should stay within, in bytes (Infinity: no budget). */
  maxBytes: number;
  /**
   * Real milliseconds, for how often resident memory is sampled: the process's memory moves in
   * real time, whatever the emulated clock does (the server passes a monotonic wall clock).
   */
  now: () => number;
  /** The process's resident memory in bytes; the adapter provides it (the core reads no process). */
  rss?: () => number;
  /** Asks the runtime to collect garbage now, so memory freed by acks shows in the next sample. */
  reclaim?: () => void;
  /** Further limits the process lives under (RLIMIT_AS, RLIMIT_DATA), sampled with resident memory. */
  gauges?: MemoryGauge[];
}

/** One measure of the process's memory against a limit it must stay under; the adapter reads it. */
export interface MemoryGauge {
  /** What is measured ("address space"), for the refusal's message. */
  what: string;
  /** Bytes past which publishes are refused (the limit less what the process keeps in reserve). */
  limit: number;
  /** Where the limit comes from ("RLIMIT_AS (ulimit -v) of 1024 MiB"). */
  cap: string;
  used: () => number;
  /** Bytes past which nothing is admitted, held room or not (default: the limit × GAUGE_HARD). */
  hard?: number;
}

/** What the budget reads of the held-memory port (store/held-memory.ts): held messages and their bytes. */
export interface HeldSource {
  readonly heldMessages: number;
  readonly heldBytes: number;
  /** Request buffers kept alive by held messages' data views, for a second at most (held-views.ts). */
  readonly pinnedBytes?: number;
}

export class MemoryBudget {
  readonly maxBytes: number;
  readonly heldLimit: number;
  private source: HeldSource = { heldMessages: 0, heldBytes: 0 };
  /** Publishes refused so far. */
  refused = 0;
  private lastSample = -Infinity;
  private lastReclaim = -Infinity;
  private rssBytes = 0;
  /** The gauge over its limit at the last sample, if any; hard when past GAUGE_HARD of it. */
  private overGauge: { what: string; used: number; limit: number; cap: string; hard: boolean } | null = null;
  /**
   * Held bytes admitted while a gauge reads over its limit. Virtual memory is not given back
   * when messages are freed (the allocator keeps its mappings), so the gauge stays over after a
   * drain; the mappings that held the messages at the crossing hold new ones, less a margin.
   */
  private gaugeRoom = Infinity;
  /**
   * The most held since a gauge last read under its limit. The gauge is sampled only on publishes,
   * so its first reading over may come after a drain (pulls and acks grew the mappings, or none
   * was taken while the budget refused): the room is what the mappings held then, not the nothing
   * held at that reading — which refused every publish for good, virtual memory never shrinking.
   */
  private heldPeak = 0;

  constructor(private o: MemoryBudgetOptions) {
    this.maxBytes = o.maxBytes;
    this.heldLimit = Math.floor(o.maxBytes * HELD_SHARE);
  }

  /** Reads held messages from the store that holds them (the one place they are held and freed). */
  track(source: HeldSource): void {
    this.source = source;
  }

  /** Accounted bytes of held messages. */
  get held(): number {
    const s = this.source;
    return s.heldBytes + (s.pinnedBytes ?? 0) + s.heldMessages * (MESSAGE_OVERHEAD + ENTRY_OVERHEAD);
  }

  /**
   * Throws RESOURCE_EXHAUSTED when `messages` messages of `bytes` would take the held messages
   * (with `waiting`: bytes of Publishes not yet stored) past their share of the budget, or when
   * the process is already over the budget.
   */
  admit(messages: number, bytes: number, waiting = 0): void {
    const incoming = bytes + messages * (MESSAGE_OVERHEAD + ENTRY_OVERHEAD);
    const held = this.held + waiting;
    if (held + incoming > this.heldLimit) {
      const of = waiting > 0 ? ` (${mb(waiting)} of them waiting for their topics' transforms)` : "";
      this.refuse(
        `the emulator holds ${mb(held)} of unacknowledged messages${of} and this request's ${mb(incoming)} would pass the ${mb(this.heldLimit)} they may take (half of the ${mb(this.maxBytes)} memory budget)`,
      );
    }
    const rss = this.sampleRss();
    if (rss > this.maxBytes) this.refuse(`the emulator process uses ${mb(rss)}, over its ${mb(this.maxBytes)} memory budget`);
    const over = this.overGauge;
    if (over && (over.hard || this.held + incoming > this.gaugeRoom)) {
      this.refuse(`the emulator's ${over.what} is ${mb(over.used)}, past the ${mb(over.limit)} it may use under its ${over.cap}`, `raise that limit`);
    }
    if (held + incoming > this.heldPeak) this.heldPeak = held + incoming;
  }

  /** For the metrics endpoint; null without a budget. */
  probe(): { limitBytes: number; usedBytes: number; heldLimitBytes: number; publishesRefused: number } | null {
    if (!Number.isFinite(this.maxBytes)) return null;
    return { limitBytes: this.maxBytes, usedBytes: this.held, heldLimitBytes: this.heldLimit, publishesRefused: this.refused };
  }

  private sampleRss(): number {
    const { rss, reclaim, gauges = [] } = this.o;
    if ((!rss && gauges.length === 0) || !Number.isFinite(this.maxBytes)) return 0;
    const now = this.o.now();
    if (now - this.lastSample < SAMPLE_MS) return this.rssBytes;
    this.lastSample = now;
    const sample = () => {
      this.rssBytes = rss?.() ?? 0;
      this.overGauge = null;
      for (const g of gauges) {
        const used = g.used();
        if (used > g.limit && !this.overGauge?.hard) this.overGauge = { what: g.what, used, limit: g.limit, cap: g.cap, hard: used > (g.hard ?? g.limit * GAUGE_HARD) };
      }
      const over = this.overGauge;
      if (!over) {
        this.gaugeRoom = Infinity;
        this.heldPeak = this.held;
      } else if (over.hard) this.gaugeRoom = Math.min(this.gaugeRoom, this.held * GAUGE_ROOM);
      else if (this.gaugeRoom === Infinity) this.gaugeRoom = Math.max(this.held, this.heldPeak) * GAUGE_ROOM;
    };
    sample();
    if ((this.rssBytes > this.maxBytes || this.overGauge) && reclaim && now - this.lastReclaim >= RECLAIM_MS) {
      this.lastReclaim = now;
      reclaim();
      sample();
    }
    return this.rssBytes;
  }

  private refuse(why: string, more = "give the emulator more memory with --max-memory"): never {
    this.refused++;
    throw new PubSubError(
      "RESOURCE_EXHAUSTED",
      `Publish refused: ${why}. Acknowledge or drop messages (subscriptions nobody reads hold every message), or ${more}.`,
    );
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

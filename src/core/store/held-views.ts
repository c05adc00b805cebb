/**
 * Message data that are views into a larger buffer (a Publish request of many messages) stay
 * views while their messages are held only briefly — the common case, a delivery acknowledged
 * within milliseconds — and are copied into buffers of their own if still held VIEW_MS later.
 * So a held message keeps its whole request alive for at most VIEW_MS, and about its own size
 * from then on (issue 8's bound), while the copy every kept message used to pay at publish is
 * skipped for most of them. What requests kept alive meanwhile hold beyond the held data
 * (`pinnedBytes`) counts against the memory budget; a request is let go as soon as none of its
 * messages is held, and at most VIEW_CAP bytes of requests are kept alive at once.
 *
 * The timer runs on real time, not the emulated clock: memory moves in real time, and a manual
 * clock that never advances must not keep requests alive. Without a timer (a store on its own,
 * core tests) views are copied the moment they are held, as before.
 */
import type { Clock } from "../clock.ts";
import { DeadlineTimer } from "../deadline-timer.ts";
import { Deque } from "../deque.ts";

/** How long a held message may keep its request alive before its data are copied out. */
export const VIEW_MS = 1000;
/**
 * Most bytes of requests kept alive at once: past it the oldest are copied out early. Messages
 * published faster than they are acked (a backlog filling) would otherwise keep a whole second
 * of requests alive and then turn them into garbage at once — a burst of memory that an
 * address-space limit (ulimit -v) does not forgive.
 */
export const VIEW_CAP = 16 * 2 ** 20;
/** At most one collection asked for in this long: a full collection pauses the process. */
const COLLECT_MS = 10_000;

/** A held message whose data may be a view into a request (the store's HeldMessage). */
export interface ViewHolder {
  data: Uint8Array;
  views: ViewGroup | null;
}

/** The held messages of one request buffer, in the order they became held. */
export interface ViewGroup {
  /** Null once the group is done: every message let go, or the survivors copied out. */
  buffer: ArrayBufferLike | null;
  due: number;
  live: number;
  /** Bytes of the held messages' data in it (counted as held already, so not as pinned). */
  liveBytes: number;
  msgs: ViewHolder[];
}

/** Its own ArrayBuffer (Buffer.allocUnsafe may share a pool slab). */
function own(view: Uint8Array): Uint8Array {
  const copy = new Uint8Array(view.length);
  copy.set(view);
  return copy;
}

export class HeldViews {
  /** Groups in due order (real time only moves forward). */
  private groups = new Deque<ViewGroup>();
  /** The group messages of the same request join while it is open. */
  private last: ViewGroup | null = null;
  private timer: DeadlineTimer | null = null;
  private clock: Clock | null = null;
  /** Bytes of request buffers kept alive by views, whole. */
  private viewBytes = 0;
  /** Bytes of the held data in them (counted as held already). */
  private liveBytes = 0;
  /** Bytes of requests the timer turned into garbage since it last asked for a collection. */
  private garbage = 0;
  private collect: (() => void) | null = null;
  private lastCollect = -Infinity;

  /** Bytes of request buffers kept alive by views, less the held data in them. */
  get pinnedBytes(): number {
    return this.viewBytes - this.liveBytes;
  }

  /**
   * Views may live VIEW_MS on `clock` (a real-time one); before this, they are copied at once.
   * `collect` asks the runtime for a collection: requests the timer copied out after a burst
   * become garbage when nothing else allocates, so without it they would stay resident.
   */
  start(clock: Clock, collect?: () => void): void {
    this.clock = clock;
    this.collect = collect ?? null;
    this.timer = new DeadlineTimer(clock, () => this.due());
  }

  /** Stops the timer and copies out whatever is still a view (nothing may wait on a stopped timer). */
  stop(): void {
    this.timer?.cancel();
    this.timer = null;
    this.clock = null;
    for (let g = this.groups.shift(); g; g = this.groups.shift()) this.copyOut(g);
  }

  /** A message became held: a view into a larger buffer joins its request's group, or is copied. */
  held(m: ViewHolder): void {
    const d = m.data;
    if (d.length * 2 >= d.buffer.byteLength) return;
    const clock = this.clock;
    if (!clock) {
      m.data = own(d);
      return;
    }
    let g = this.last;
    if (!g || g.buffer !== d.buffer) {
      g = { buffer: d.buffer, due: clock.now() + VIEW_MS, live: 0, liveBytes: 0, msgs: [] };
      this.last = g;
      this.groups.push(g);
      this.viewBytes += d.buffer.byteLength;
      if (this.viewBytes > VIEW_CAP) this.copyOldest(g);
      this.timer!.armAt(g.due);
    }
    g.live++;
    g.liveBytes += d.length;
    this.liveBytes += d.length;
    g.msgs.push(m);
    m.views = g;
  }

  /** A message is no longer held: its request is let go once none of its messages is. */
  released(m: ViewHolder): void {
    const g = m.views;
    if (!g) return;
    m.views = null;
    g.liveBytes -= m.data.length;
    this.liveBytes -= m.data.length;
    if (--g.live === 0) this.done(g);
  }

  private due(): void {
    const now = this.clock!.now();
    for (let g = this.groups.peek(); g && g.due <= now; g = this.groups.peek()) {
      this.groups.shift();
      if (g.buffer) this.garbage += g.buffer.byteLength;
      this.copyOut(g);
    }
    const next = this.groups.peek();
    if (next) this.timer!.armAt(next.due);
    else if (this.garbage >= VIEW_CAP / 2 && this.collect && now - this.lastCollect >= COLLECT_MS) {
      this.garbage = 0;
      this.lastCollect = now;
      this.collect();
    }
  }

  /** Over the cap: the oldest groups are copied out now (never `keep`, the one being filled). */
  private copyOldest(keep: ViewGroup): void {
    for (let g = this.groups.peek(); g && g !== keep && this.viewBytes > VIEW_CAP / 2; g = this.groups.peek()) {
      this.groups.shift();
      this.copyOut(g);
    }
  }

  private copyOut(g: ViewGroup): void {
    if (!g.buffer) return;
    for (const m of g.msgs) {
      if (m.views !== g) continue;
      m.data = own(m.data);
      m.views = null;
    }
    this.done(g);
  }

  private done(g: ViewGroup): void {
    if (!g.buffer) return;
    this.viewBytes -= g.buffer.byteLength;
    this.liveBytes -= g.liveBytes;
    g.buffer = null;
    g.msgs = [];
    if (this.last === g) this.last = null;
  }
}

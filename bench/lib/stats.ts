// Latency samples and delivery accounting. Nothing is assumed: every published sequence
// number is checked off on receipt, so losses and duplicates are counted.

/** Latency samples in ms. Keeps everything up to `cap`, then reservoir-samples. */
export class Latencies {
  private a: Float64Array;
  private n = 0;
  private seen = 0;
  constructor(private cap = 5_000_000) { this.a = new Float64Array(1024); }
  add(ms: number) {
    this.seen++;
    if (this.n < this.cap) {
      if (this.n === this.a.length) {
        const b = new Float64Array(Math.min(this.cap, this.a.length * 2));
        b.set(this.a);
        this.a = b;
      }
      this.a[this.n++] = ms;
    } else {
      const j = Math.floor(Math.random() * this.seen);
      if (j < this.cap) this.a[j] = ms;
    }
  }
  get count() { return this.seen; }
  summary(): LatencySummary {
    if (this.n === 0) return { n: 0, p50: null, p95: null, p99: null, max: null, mean: null };
    const s = this.a.slice(0, this.n).sort();
    const q = (p: number) => s[Math.min(this.n - 1, Math.floor(p * this.n))]!;
    let sum = 0;
    for (let i = 0; i < this.n; i++) sum += s[i]!;
    return { n: this.seen, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: s[this.n - 1]!, mean: sum / this.n };
  }
}
export interface LatencySummary {
  n: number; p50: number | null; p95: number | null; p99: number | null; max: number | null; mean: number | null;
}

/** Per-sequence receipt counts for one consumer (subscription). */
export class Deliveries {
  private counts = new Uint8Array(1 << 16);
  received = 0;   // unique
  deliveries = 0; // including duplicates
  duplicates = 0;
  foreign = 0;    // messages that are not ours (other run id / malformed)
  /** Returns true if this is the first receipt of `seq`. */
  mark(seq: number): boolean {
    if (!(seq >= 0)) { this.foreign++; return false; }
    if (seq >= this.counts.length) {
      let len = this.counts.length;
      while (len <= seq) len *= 2;
      const b = new Uint8Array(len);
      b.set(this.counts);
      this.counts = b;
    }
    this.deliveries++;
    const c = this.counts[seq]!;
    if (c < 255) this.counts[seq] = c + 1;
    if (c === 0) { this.received++; return true; }
    this.duplicates++;
    return false;
  }
  /** Sequence numbers in `published` (acknowledged by the server) that never arrived. */
  lost(published: Iterable<number> | number): number {
    let lost = 0;
    if (typeof published === "number") {
      for (let i = 0; i < published; i++) if (!(this.counts[i]! > 0)) lost++;
    } else for (const i of published) if (!(this.counts[i]! > 0)) lost++;
    return lost;
  }
}

/** Set of sequence numbers the server acknowledged (publish promise resolved). */
export class SeqSet {
  private bits = new Uint8Array(1 << 13);
  size = 0;
  add(seq: number) {
    const byte = seq >> 3;
    if (byte >= this.bits.length) {
      let len = this.bits.length;
      while (len <= byte) len *= 2;
      const b = new Uint8Array(len);
      b.set(this.bits);
      this.bits = b;
    }
    const m = 1 << (seq & 7);
    if (!(this.bits[byte]! & m)) { this.bits[byte]! |= m; this.size++; }
  }
  has(seq: number) { return ((this.bits[seq >> 3] ?? 0) & (1 << (seq & 7))) !== 0; }
  *[Symbol.iterator]() {
    for (let byte = 0; byte < this.bits.length; byte++) {
      const v = this.bits[byte]!;
      if (v) for (let k = 0; k < 8; k++) if (v & (1 << k)) yield byte * 8 + k;
    }
  }
}

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Wall clock in ms with sub-ms precision; comparable across processes on one host. */
export const nowMs = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

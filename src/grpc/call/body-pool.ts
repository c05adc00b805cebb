/**
 * Buffers for large request messages, used again once a call says nothing kept a view into its
 * request. A fresh buffer of a megabyte costs its page faults on every request (a Publish of
 * 1,000 × 1 KiB spent a third of its server time assembling its body), while one used before is
 * already resident. Only the calls that give their body back reuse one; the rest are garbage as
 * before. The pool is small and empties itself once large requests stop coming.
 */

/**
 * Messages below this are allocated as they come. A Publish of 100 × 1 KiB (≈ 108 KiB, the
 * client's default batch) pays its faults too: pooled from 64 KiB, its server CPU was 0.78× of
 * unpooled in the lean generator's run, and 1.03× with the floor at 256 KiB (not pooled).
 */
export const POOLED_MIN = 64 * 1024;
const MAX_BUFFERS = 8;
const MAX_BYTES = 16 * 2 ** 20;
/** Idle this long, the pool lets its buffers go (their memory returns to the system). */
const IDLE_MS = 2000;
/** Capacities are a sixteenth over the request, in multiples of this: requests of nearly the same size share buffers. */
const STEP = 4096;

export class BodyPool {
  private free: ArrayBuffer[] = [];
  private bytes = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private used = false;

  /** A buffer of exactly `n` bytes (n ≥ POOLED_MIN), from the pool when one fits without wasting half. */
  take(n: number): Buffer {
    this.used = true;
    const free = this.free;
    for (let i = 0; i < free.length; i++) {
      const b = free[i]!;
      if (b.byteLength >= n && b.byteLength < 2 * n) {
        free[i] = free[free.length - 1]!;
        free.pop();
        this.bytes -= b.byteLength;
        return Buffer.from(b, 0, n);
      }
    }
    // Not zeroed (every byte is written before it is read), and a little larger so that the
    // next requests of about the same size fit it.
    return Buffer.allocUnsafeSlow(Math.ceil((n + (n >> 4)) / STEP) * STEP).subarray(0, n);
  }

  /** `body` (from take) is not referenced any more, nor any view into it. */
  give(body: Buffer): void {
    const b = body.buffer as ArrayBuffer;
    if (this.free.length >= MAX_BUFFERS || this.bytes + b.byteLength > MAX_BYTES) return;
    this.free.push(b);
    this.bytes += b.byteLength;
    if (this.timer === null) this.arm();
  }

  private arm(): void {
    this.used = false;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.used) return this.arm();
      this.free = [];
      this.bytes = 0;
    }, IDLE_MS);
    this.timer.unref?.();
  }
}

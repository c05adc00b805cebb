/**
 * An in-process byte pipe for a raw HTTP/2 connection (src/grpc/h2/), in place of a socket: it
 * takes `room` bytes and then nothing until given more, keeps what it took (as frames, parsed)
 * and counts what waits beyond it, as a Bun socket's Outbox would hold it.
 */
import type { Wire } from "../../src/grpc/h2/connection.ts";
import type { Frame } from "./h2-peer.ts";

export class FakeWire implements Wire {
  /** Bytes written and not taken: what the server holds for a client that does not read. */
  held = 0;
  taken = 0;
  ended = false;
  destroyed = false;
  readonly frames: Frame[] = [];
  private buf: Buffer = Buffer.alloc(0);

  /** `room`: bytes it takes before it stops (Infinity: a client that reads everything); `keep`: parse what it takes. */
  constructor(
    public room = Infinity,
    private readonly keep = true,
  ) {}

  tryWrite(b: Buffer): number {
    if (this.held > 0 || this.destroyed) return this.destroyed ? b.length : 0;
    const n = Math.min(this.room, b.length);
    this.room -= n;
    this.taken += n;
    if (this.keep && n > 0) this.parse(b.subarray(0, n));
    return n;
  }

  write(b: Buffer): boolean {
    const n = this.tryWrite(b);
    if (n === b.length) return true;
    this.held += b.length - n;
    return false;
  }

  end(): void {
    this.ended = true;
  }

  destroy(): void {
    this.destroyed = true;
  }

  private parse(b: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, b]) : Buffer.from(b);
    while (this.buf.length >= 9) {
      const len = this.buf.readUIntBE(0, 3);
      if (this.buf.length < 9 + len) break;
      this.frames.push({ type: this.buf[3]!, flags: this.buf[4]!, stream: this.buf.readUInt32BE(5) & 0x7fffffff, payload: this.buf.subarray(9, 9 + len) });
      this.buf = this.buf.subarray(9 + len);
    }
  }
}

/** A FakeWire that can stop reading, as a socket does: the connection then yields between turns. */
export class PausableWire extends FakeWire {
  paused = false;
  pauses = 0;

  pause(): void {
    this.paused = true;
    this.pauses++;
  }

  resume(): void {
    this.paused = false;
  }
}

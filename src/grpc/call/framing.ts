/**
 * gRPC length-prefixed messages read across DATA chunks: 1 flag byte (compressed or not), 4
 * bytes of length, the body. A length past the limit ends the call before any of it is held.
 */
export interface RawMessage {
  compressed: boolean;
  body: Buffer;
}

export class TooLarge extends Error {}

/**
 * Bytes of unfinished messages held by every call of one server. One message may be 64 MiB; many
 * streams each holding most of one would hold any amount, so past `max` the call whose chunk
 * would go over is refused (Overloaded) and lets go of what it held.
 */
export class PartialBytes {
  held = 0;
  constructor(readonly max: number) {}
}

export class Overloaded extends Error {}

export class MessageReader {
  /** Bytes of an unfinished message (or header) kept from earlier chunks. */
  private parts: Buffer[] = [];
  private held = 0;
  /** Length of the message being read once its header is complete; -1 before. */
  private need = -1;
  private flag = 0;

  constructor(
    private readonly max: number,
    private readonly pool: PartialBytes = new PartialBytes(Infinity),
  ) {}

  /** Held bytes become `n`; growing past the pool's limit lets go of everything and throws. */
  private setHeld(n: number): void {
    const pool = this.pool;
    if (n > this.held && pool.held + n - this.held > pool.max) {
      const max = pool.max;
      this.release();
      throw new Overloaded(`The emulator holds ${(pool.held / 2 ** 20).toFixed(0)} MiB of partly received messages, its limit of ${(max / 2 ** 20).toFixed(0)} MiB (a quarter of --max-memory); retry the request.`);
    }
    pool.held += n - this.held;
    this.held = n;
  }

  /** Lets go of what an unfinished message held (the call ended). */
  release(): void {
    this.pool.held -= this.held;
    this.held = 0;
    this.parts = [];
    this.need = -1;
  }

  /** The messages `chunk` completes, in order; throws TooLarge for a length past the limit. */
  push(chunk: Buffer): RawMessage[] {
    const out: RawMessage[] = [];
    let buf = chunk;
    /** A message cut from a chunk is copied (as grpc-js does): decoded views must not pin or share it. */
    let owned = false;
    if (this.held) {
      this.setHeld(this.held + chunk.length);
      this.parts.push(chunk);
      if (this.need >= 0 ? this.held < this.need : this.held < 5) return out;
      buf = Buffer.concat(this.parts, this.held);
      owned = true;
      this.parts = [];
      this.setHeld(0);
    }
    let at = 0;
    for (;;) {
      if (this.need < 0) {
        if (buf.length - at < 5) break;
        this.flag = buf[at]!;
        const length = buf.readUInt32BE(at + 1);
        if (length > this.max) throw new TooLarge(`Received message larger than max (${length} vs ${this.max})`);
        this.need = length;
        at += 5;
      }
      if (buf.length - at < this.need) break;
      const body = buf.subarray(at, at + this.need);
      out.push({ compressed: this.flag === 1, body: owned && body.length === buf.length - at ? body : Buffer.from(body) });
      at += this.need;
      this.need = -1;
    }
    if (at < buf.length) {
      // The rest waits for the next chunk; a header's 5 bytes are re-read then (need stays -1).
      const rest = buf.subarray(at);
      this.setHeld(rest.length);
      this.parts.push(rest);
    }
    return out;
  }
}

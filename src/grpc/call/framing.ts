/**
 * gRPC length-prefixed messages read across DATA chunks: 1 flag byte (compressed or not), 4
 * bytes of length, the body. A length past the limit ends the call before any of it is held.
 */
import { BodyPool, POOLED_MIN } from "./body-pool.ts";

export interface RawMessage {
  compressed: boolean;
  body: Buffer;
  /** Taken from the reader's BodyPool: the call may give it back (Call.giveBack). */
  pooled?: boolean;
}

export class TooLarge extends Error {}

/**
 * Bytes of unfinished messages held by every call of one server. One message may be 64 MiB; many
 * streams each holding most of one would hold any amount, so past `max` the call whose chunk
 * would go over is refused (Overloaded) and lets go of what it held.
 */
export class PartialBytes {
  held = 0;
  /** Large messages' buffers, used again when their calls give them back. */
  readonly bodies = new BodyPool();
  constructor(readonly max: number) {}
}

export class Overloaded extends Error {}

export class MessageReader {
  /** Bytes of an unfinished header (under 5) kept from earlier chunks. */
  private head: Buffer[] = [];
  /** Bytes received of the message being read (its header's included until it is complete), held against the pool. */
  private held = 0;
  /** Length of the message being read once its header is complete; -1 before. */
  private need = -1;
  private flag = 0;
  /** The message being filled across chunks, and how much of it is there. */
  private body: Buffer | null = null;
  private filled = 0;
  private pooled = false;

  constructor(
    private readonly max: number,
    private readonly pool: PartialBytes = new PartialBytes(Infinity),
  ) {}

  /** A pooled message body nothing refers to any more (nor to a view into it). */
  giveBack(body: Buffer): void {
    this.pool.bodies.give(body);
  }

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
    this.head = [];
    this.body = null;
    this.need = -1;
  }

  /** The messages `chunk` completes, in order; throws TooLarge for a length past the limit. */
  push(chunk: Buffer): RawMessage[] {
    const out: RawMessage[] = [];
    let at = 0;
    if (this.body) {
      // A message cut by the chunks before: it is filled in place, copied once.
      const take = Math.min(this.need - this.filled, chunk.length);
      this.setHeld(this.held + take);
      this.body.set(take === chunk.length ? chunk : chunk.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < this.need) return out;
      out.push({ compressed: this.flag === 1, body: this.body, pooled: this.pooled });
      this.body = null;
      this.need = -1;
      this.setHeld(0);
    } else if (this.held) {
      // An unfinished header: completed from this chunk's first bytes.
      const take = Math.min(5 - this.held, chunk.length);
      this.head.push(chunk.subarray(0, take));
      this.setHeld(this.held + take);
      at = take;
      if (this.held < 5) return out;
      const h = Buffer.concat(this.head, 5);
      this.head = [];
      this.setHeld(0);
      this.header(h, 0);
    }
    for (;;) {
      if (this.need < 0) {
        const left = chunk.length - at;
        if (left === 0) break;
        if (left < 5) {
          // The header's rest comes with the next chunk; its bytes are copied (the chunk is not kept).
          this.head.push(Buffer.from(chunk.subarray(at)));
          this.setHeld(left);
          break;
        }
        this.header(chunk, at);
        at += 5;
      }
      const need = this.need;
      const left = chunk.length - at;
      if (left >= need) {
        // A message whole in this chunk is copied out of it (as grpc-js does): decoded views must not pin or share it.
        out.push({ compressed: this.flag === 1, body: Buffer.from(chunk.subarray(at, at + need)) });
        at += need;
        this.need = -1;
        continue;
      }
      this.setHeld(left);
      this.pooled = need >= POOLED_MIN;
      this.body = this.pooled ? this.pool.bodies.take(need) : Buffer.allocUnsafe(need);
      this.body.set(chunk.subarray(at), 0);
      this.filled = left;
      break;
    }
    return out;
  }

  /** Reads a message header at `at`: its flag and length (checked against the limit). */
  private header(buf: Buffer, at: number): void {
    this.flag = buf[at]!;
    const length = buf.readUInt32BE(at + 1);
    if (length > this.max) throw new TooLarge(`Received message larger than max (${length} vs ${this.max})`);
    this.need = length;
  }
}

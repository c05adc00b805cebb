/**
 * HTTP/2 by hand on a TCP socket, for the tests that send what no client library would: frames,
 * HPACK literals, a gRPC request's header block, and a Peer that collects the server's frames.
 */
import * as net from "node:net";

export const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
export const WAIT_MS = 5000;

import { Type as T } from "../../src/grpc/h2/frame.ts";

export { T };

export interface Frame {
  type: number;
  flags: number;
  stream: number;
  payload: Buffer;
}

export function frame(type: number, flags: number, stream: number, payload: Buffer | number[] = []): Buffer {
  const p = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const h = Buffer.alloc(9);
  h.writeUIntBE(p.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(stream, 5);
  return Buffer.concat([h, p]);
}

export const SETTINGS = frame(T.SETTINGS, 0, 0);
export const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
/** A SETTINGS frame of [id, value] pairs. */
export function settings(pairs: [number, number][]): Buffer {
  const p = Buffer.alloc(pairs.length * 6);
  pairs.forEach(([id, v], i) => {
    p.writeUInt16BE(id, i * 6);
    p.writeUInt32BE(v, i * 6 + 2);
  });
  return frame(T.SETTINGS, 0, 0, p);
}

export function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 128) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** An HPACK string length with a 7-bit prefix (RFC 7541 §5.1), no Huffman. */
function strLen(n: number): Buffer {
  return n < 127 ? Buffer.from([n]) : Buffer.from([0x7f, ...varint(n - 127)]);
}

/** A literal header field without indexing, new name, no Huffman (RFC 7541 §6.2.2). */
export function literal(name: string, value: string): Buffer {
  const v = Buffer.from(value, "latin1");
  return Buffer.concat([Buffer.from([0]), strLen(name.length), Buffer.from(name, "latin1"), strLen(v.length), v]);
}

/** A literal header field with incremental indexing, new name (RFC 7541 §6.2.1): it enters the dynamic table. */
export function indexed(name: string, value: string): Buffer {
  const v = Buffer.from(value, "latin1");
  return Buffer.concat([Buffer.from([0x40]), strLen(name.length), Buffer.from(name, "latin1"), strLen(v.length), v]);
}

/** Request headers of a gRPC call to `path`: :method POST (static 3), :scheme http (6), the rest literals. */
export function requestBlock(path: string, extra: Buffer[] = []): Buffer {
  return Buffer.concat([Buffer.from([0x83, 0x86]), literal(":path", path), literal(":authority", "x"), literal("content-type", "application/grpc"), literal("te", "trailers"), ...extra]);
}

/** A gRPC message frame (uncompressed) around `msg`. */
export function grpcMessage(msg: Buffer): Buffer {
  const h = Buffer.alloc(5);
  h.writeUInt32BE(msg.length, 1);
  return Buffer.concat([h, msg]);
}

/** A StreamingPullRequest: subscription (field 1) and stream_ack_deadline_seconds (field 5). */
export function streamingPullRequest(subscription: string, ackDeadline = 60): Buffer {
  const s = Buffer.from(subscription);
  return grpcMessage(Buffer.concat([Buffer.from([0x0a, ...varint(s.length)]), s, Buffer.from([0x28, ...varint(ackDeadline)])]));
}

export const STREAMING_PULL = "/google.pubsub.v1.Subscriber/StreamingPull";

/** A connection that collects the server's frames. */
export class Peer {
  readonly frames: Frame[] = [];
  /** Bytes of DATA received, per stream. */
  readonly dataBytes = new Map<number, number>();
  private buf: Buffer = Buffer.alloc(0);
  closed = false;
  readonly socket: net.Socket;
  private waiters: (() => void)[] = [];
  /** Called with each frame as it arrives (a client that answers DATA, say). */
  onFrame: ((f: Frame) => void) | null = null;

  /** Sends the preface and `first` (null: nothing, the caller sends its own preface); `keep` false: DATA frames are counted, not kept. */
  constructor(
    port: number,
    first: Buffer | null = SETTINGS,
    private readonly keep = true,
  ) {
    this.socket = net.connect(port, "127.0.0.1");
    this.socket.on("data", (d: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      while (this.buf.length >= 9) {
        const len = this.buf.readUIntBE(0, 3);
        if (this.buf.length < 9 + len) break;
        const f = { type: this.buf[3]!, flags: this.buf[4]!, stream: this.buf.readUInt32BE(5) & 0x7fffffff, payload: this.buf.subarray(9, 9 + len) };
        if (f.type === T.DATA) this.dataBytes.set(f.stream, (this.dataBytes.get(f.stream) ?? 0) + len);
        if (f.type !== T.DATA || this.keep) this.frames.push(f);
        this.onFrame?.(f);
        this.buf = this.buf.subarray(9 + len);
      }
      this.wake();
    });
    this.socket.on("error", () => {});
    this.socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
    if (first) this.socket.write(Buffer.concat([PREFACE, first]));
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  send(...b: Buffer[]): boolean {
    if (this.socket.destroyed) return false;
    return this.socket.write(b.length === 1 ? b[0]! : Buffer.concat(b));
  }

  /** Resolves once the socket takes more (or closes), at most after `ms`. */
  drained(ms = WAIT_MS): Promise<void> {
    return new Promise<void>((r) => {
      if (this.socket.destroyed) return r();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        r();
      }
      this.socket.once("drain", done);
      this.socket.once("close", done);
    });
  }

  /** The first frame `match` accepts, or null after the bound (or once the socket closed without it). */
  async next(match: (f: Frame) => boolean, ms = WAIT_MS): Promise<Frame | null> {
    const end = Date.now() + ms;
    for (;;) {
      const f = this.frames.find(match);
      if (f) return f;
      if (this.closed || Date.now() >= end) return null;
      await new Promise<void>((r) => {
        const t = setTimeout(r, end - Date.now());
        this.waiters.push(() => (clearTimeout(t), r()));
      });
    }
  }

  /** Resolves true once the socket closed, false after `ms`. */
  async closedWithin(ms = WAIT_MS): Promise<boolean> {
    await this.next(() => false, ms);
    return this.closed;
  }

  goaway(ms = WAIT_MS): Promise<Frame | null> {
    return this.next((f) => f.type === T.GOAWAY, ms);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

export const goawayCode = (f: Frame | null) => (f ? f.payload.readUInt32BE(4) : -1);

export const rstCode = (f: Frame | null) => (f ? f.payload.readUInt32BE(0) : -1);

/** A header block of the fields in order, each a literal (any name, any value, as a hostile client may send). */
export const fieldsBlock = (fields: [string, string][]) => Buffer.concat(fields.map(([n, v]) => literal(n, v)));

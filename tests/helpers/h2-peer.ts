/**
 * A hand-driven HTTP/2 client for the raw-frame tests: frames built byte by byte (HPACK literals,
 * no Huffman), and a connection that collects every frame the server sends, each wait bounded.
 */
import * as net from "node:net";

export const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
export const WAIT_MS = 5000;

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

export const SETTINGS = frame(4, 0, 0);
export const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** A literal header field without indexing, new name, no Huffman (RFC 7541 §6.2.2); lengths < 127. */
export function literal(name: string, value: string): Buffer {
  const v = Buffer.from(value, "latin1");
  const long = v.length >= 127;
  const len = long ? Buffer.from([0x7f, ...varint(v.length - 127)]) : Buffer.from([v.length]);
  return Buffer.concat([Buffer.from([0, name.length]), Buffer.from(name, "latin1"), len, v]);
}
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 128) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** Request headers of a gRPC call to `path`: :method POST (static 3), :scheme http (6), the rest literals. */
export function requestBlock(path: string, extra: Buffer[] = []): Buffer {
  return Buffer.concat([Buffer.from([0x83, 0x86]), literal(":path", path), literal(":authority", "x"), literal("content-type", "application/grpc"), literal("te", "trailers"), ...extra]);
}

/** A connection that collects the server's frames. */
export class Peer {
  readonly frames: Frame[] = [];
  private buf = Buffer.alloc(0);
  closed = false;
  private readonly socket: net.Socket;
  private waiters: (() => void)[] = [];

  constructor(port: number) {
    this.socket = net.connect(port, "127.0.0.1");
    this.socket.on("data", (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      while (this.buf.length >= 9) {
        const len = this.buf.readUIntBE(0, 3);
        if (this.buf.length < 9 + len) break;
        this.frames.push({ type: this.buf[3]!, flags: this.buf[4]!, stream: this.buf.readUInt32BE(5) & 0x7fffffff, payload: this.buf.subarray(9, 9 + len) });
        this.buf = this.buf.subarray(9 + len);
      }
      this.wake();
    });
    this.socket.on("error", () => {});
    this.socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
    this.socket.write(Buffer.concat([PREFACE, SETTINGS]));
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  send(...b: Buffer[]): void {
    this.socket.write(Buffer.concat(b));
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

  goaway(): Promise<Frame | null> {
    return this.next((f) => f.type === 7);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

export const goawayCode = (f: Frame | null) => (f ? f.payload.readUInt32BE(4) : -1);

export const rstCode = (f: Frame | null) => (f ? f.payload.readUInt32BE(0) : -1);

/** A header block of the fields in order, each a literal (any name, any value, as a hostile client may send). */
export const fieldsBlock = (fields: [string, string][]) => Buffer.concat(fields.map(([n, v]) => literal(n, v)));

/** A gRPC length-prefixed message around `bytes` (not compressed). */
export function grpcMessage(bytes: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
}

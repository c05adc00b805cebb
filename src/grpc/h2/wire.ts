/**
 * The byte pipes under a raw HTTP/2 connection: a Bun socket of the raw front
 * (server/raw-front.ts), written straight to with the unwritten rest kept aside, or a node:net
 * socket when a connection comes through the shared node:net port.
 */
import type * as net from "node:net";
import type { H2Connection, Wire } from "./connection.ts";

export function netWire(socket: net.Socket, c: H2Connection): Wire {
  socket.on("data", (chunk: Buffer) => c.read(chunk));
  socket.on("drain", () => c.drained());
  socket.on("error", () => socket.destroy());
  socket.on("close", () => c.gone());
  return socket;
}

/** The part of a Bun socket used here: write answers how many bytes the kernel took. */
export interface NativeSocket {
  write(b: Uint8Array): number;
  /** Sends our FIN and keeps reading. */
  shutdown(): void;
  end(): void;
  terminate(): void;
  pause(): unknown;
  resume(): unknown;
}

/**
 * How long a socket we close still reads (and drops) what the client had in flight. Closed at
 * once, its kernel would answer those bytes with a TCP reset, and a reset makes the client's
 * kernel discard what it had not yet read: our GOAWAY, or the last answer. The socket closes
 * sooner once the client's FIN arrives.
 */
const LINGER_MS = 1000;

/** Our side of a Bun socket ends: FIN now, the socket closed after the client's FIN or LINGER_MS. */
export function closeGently(native: NativeSocket): void {
  native.shutdown();
  setTimeout(() => native.end(), LINGER_MS).unref?.();
}

/**
 * Bytes waiting for a Bun socket, which does not buffer: kept as they were written (views, no
 * copy) and written oldest first as the socket takes them. Also the raw front's HTTP/1 relay.
 */
export class Outbox {
  private queue: Buffer[] = [];
  bytes = 0;

  get empty(): boolean {
    return this.queue.length === 0;
  }

  push(b: Buffer): void {
    this.queue.push(b);
    this.bytes += b.length;
  }

  /** Writes to `socket` what it takes now; true once nothing waits. */
  flush(socket: { write(b: Uint8Array): number }): boolean {
    while (this.queue.length) {
      const b = this.queue[0]!;
      const n = Math.max(0, socket.write(b));
      this.bytes -= n;
      if (n < b.length) {
        this.queue[0] = b.subarray(n);
        return false;
      }
      this.queue.shift();
    }
    return true;
  }

  clear(): void {
    this.queue = [];
    this.bytes = 0;
  }
}

/** A connection's Bun socket: what a write did not take waits in an Outbox for the drain. */
export class BunWire implements Wire {
  private readonly rest = new Outbox();
  private ending = false;
  destroyed = false;

  constructor(
    private readonly native: NativeSocket,
    readonly conn: H2Connection,
  ) {}

  write(b: Buffer): boolean {
    if (this.destroyed || this.ending) return true;
    this.rest.push(b);
    return this.rest.flush(this.native);
  }

  pause(): void {
    if (!this.destroyed) this.native.pause();
  }

  resume(): void {
    if (!this.destroyed) this.native.resume();
  }

  tryWrite(b: Buffer): number {
    if (this.destroyed || this.ending) return b.length;
    if (!this.rest.empty) return 0;
    return Math.max(0, this.native.write(b));
  }

  /** The socket takes more: what waited goes first, then the connection may write again. */
  onDrain(): void {
    if (!this.rest.flush(this.native)) return;
    if (this.ending) this.finish();
    else this.conn.drained();
  }

  end(): void {
    if (this.destroyed || this.ending) return;
    this.ending = true;
    if (this.rest.empty) this.finish();
  }

  private finish(): void {
    this.destroyed = true;
    closeGently(this.native);
  }

  destroy(): void {
    this.destroyed = true;
    this.rest.clear();
    this.native.terminate();
  }

  /** The socket closed. */
  onClose(): void {
    this.destroyed = true;
    this.rest.clear();
    this.conn.gone();
  }
}

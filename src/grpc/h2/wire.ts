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
  end(): void;
  terminate(): void;
}

/** Bun sockets do not buffer: what a write did not take waits here (as views) for the drain. */
export class BunWire implements Wire {
  private rest: Buffer[] = [];
  private ending = false;
  destroyed = false;

  constructor(
    private readonly native: NativeSocket,
    readonly conn: H2Connection,
  ) {}

  write(b: Buffer): boolean {
    if (this.destroyed || this.ending) return true;
    if (this.rest.length) {
      this.rest.push(b);
      return false;
    }
    const n = this.native.write(b);
    if (n >= b.length) return true;
    this.rest.push(n > 0 ? b.subarray(n) : b);
    return false;
  }

  tryWrite(b: Buffer): number {
    if (this.destroyed || this.ending) return b.length;
    if (this.rest.length) return 0;
    return Math.max(0, this.native.write(b));
  }

  /** The socket takes more: what waited goes first, then the connection may write again. */
  onDrain(): void {
    while (this.rest.length) {
      const b = this.rest[0]!;
      const n = this.native.write(b);
      if (n < b.length) {
        this.rest[0] = n > 0 ? b.subarray(n) : b;
        return;
      }
      this.rest.shift();
    }
    if (this.ending) this.finish();
    else this.conn.drained();
  }

  end(): void {
    if (this.destroyed || this.ending) return;
    this.ending = true;
    if (this.rest.length === 0) this.finish();
  }

  private finish(): void {
    this.destroyed = true;
    this.native.end();
  }

  destroy(): void {
    this.ending = false;
    this.destroyed = true;
    this.rest = [];
    this.native.terminate();
  }

  /** The socket closed. */
  onClose(): void {
    this.destroyed = true;
    this.rest = [];
    this.conn.gone();
  }
}

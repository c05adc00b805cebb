/**
 * One HTTP/2 stream of the raw server, a CallStream of the gRPC call layer (call/stream.ts, the
 * part of node:http2's ServerHttp2Stream a call uses): respond, write (false past the high-water mark, then
 * 'drain'), end with 'wantTrailers' and sendTrailers when respond was given waitForTrailers (a
 * gRPC call), else end with an empty DATA frame (a plain HTTP answer); trailers-only answers with
 * respond's endStream; and the 'data', 'end' and 'close' events.
 * Bytes written wait in the stream until the flow-control windows let the connection send them.
 */
import { EventEmitter } from "node:events";
import type { CallStream } from "../call/stream.ts";
import type { Pinger } from "../call/answer-gate.ts";

/** What a stream needs of its connection. */
export interface StreamOwner extends Pinger {
  sendHeaders(stream: H2Stream, headers: Record<string, string | number>, endStream: boolean): void;
  /** Ends a response that has no trailers. */
  endData(stream: H2Stream): void;
  /** The stream has bytes to send: queue it for the next pump. */
  wake(stream: H2Stream): void;
  closed(stream: H2Stream): void;
  /** Bytes the connection could send now: its window, 0 while its socket is blocked. */
  sendable(): number;
  /** Bytes written to the stream (negative: dropped unsent), so the connection bounds its total. */
  held(bytes: number): void;
}

/** Above this many unsent bytes, write() answers false (node's streams use 16 KiB; a StreamingPull response is up to 1 MiB, a Pull response 10 MB). */
const HIGH_WATER = 64 * 1024;

export class H2Stream extends EventEmitter implements CallStream {
  /** Bytes written and not yet sent, oldest first; `offset` into the first. */
  pending: Buffer[] = [];
  offset = 0;
  pendingBytes = 0;
  sendWindow: number;
  /** Received DATA bytes not yet given back with a WINDOW_UPDATE, and what the client may still send. */
  recvUnacked = 0;
  recvWindow: number;
  private headersSent = false;
  private waitForTrailers = false;
  /** The request's content-length (-1: none) and the DATA bytes received, compared as they come. */
  contentLength = -1;
  received = 0;
  /** Handed to its handler (the connection holds a new stream back for a few frames: connection.ts). */
  started = false;
  /** When its HEADERS were read (the connection's clock), to tell a premature reset. */
  openedAt = 0;
  /** Closed by our RST_STREAM: frames the client had in flight are not its fault. */
  resetSent = false;
  /** end() was called: once pending is sent, 'wantTrailers' asks for the trailers that end it. */
  ending = false;
  private needDrain = false;
  localClosed = false;
  remoteClosed = false;
  closed = false;

  constructor(
    readonly id: number,
    private readonly owner: StreamOwner,
    sendWindow: number,
    recvWindow: number,
  ) {
    super();
    this.sendWindow = sendWindow;
    this.recvWindow = recvWindow;
  }

  /** Its connection, which PINGs after a Publish's answer (call/answer-gate.ts). */
  get pinger(): Pinger {
    return this.owner;
  }

  /** Whether the response's headers went out. */
  get responded(): boolean {
    return this.headersSent;
  }

  get destroyed(): boolean {
    return this.closed;
  }

  respond(headers: Record<string, string | number>, o?: { endStream?: boolean; waitForTrailers?: boolean }): void {
    if (this.closed || this.localClosed) throw new Error("The stream is closed");
    if (this.headersSent) throw new Error("Response headers were already sent");
    this.headersSent = true;
    this.waitForTrailers = o?.waitForTrailers === true;
    const end = o?.endStream === true;
    this.owner.sendHeaders(this, headers, end);
    if (end) this.closeLocal();
  }

  write(chunk: Buffer): boolean {
    if (this.closed || this.localClosed || this.ending) return false;
    if (chunk.length) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      this.owner.held(chunk.length);
      this.owner.wake(this);
    }
    if (this.pendingBytes > HIGH_WATER) {
      this.needDrain = true;
      return false;
    }
    return true;
  }

  /** Bytes a write could take now and see go at once, or wait below the high-water mark. */
  room(): number {
    return Math.max(0, HIGH_WATER - this.pendingBytes) + Math.max(0, Math.min(this.sendWindow - this.pendingBytes, this.owner.sendable()));
  }

  end(chunk?: Buffer): void {
    if (this.closed || this.localClosed || this.ending) return;
    if (chunk) this.write(chunk);
    this.ending = true;
    if (this.pendingBytes === 0) this.owner.wake(this);
  }

  sendTrailers(headers: Record<string, string | number>): void {
    if (this.closed || this.localClosed) throw new Error("The stream is closed");
    this.owner.sendHeaders(this, headers, true);
    this.closeLocal();
  }

  /** The connection sent what was pending (called as it empties). */
  sent(): void {
    if (this.needDrain && this.pendingBytes <= HIGH_WATER) {
      this.needDrain = false;
      this.emit("drain");
    }
    if (!this.ending || this.pendingBytes > 0 || this.localClosed || this.closed) return;
    if (this.waitForTrailers) return void this.emit("wantTrailers");
    this.owner.endData(this);
    this.closeLocal();
  }

  private closeLocal(): void {
    this.localClosed = true;
    if (this.remoteClosed) this.destroy();
  }

  /** The client's END_STREAM. */
  endRemote(): void {
    if (this.remoteClosed) return;
    this.remoteClosed = true;
    this.emit("end");
    if (this.localClosed) this.destroy();
  }

  /** Closed for good (both sides done, a reset, or the connection gone): emits 'close' once. */
  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.pendingBytes) this.owner.held(-this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.owner.closed(this);
    this.emit("close");
  }
}

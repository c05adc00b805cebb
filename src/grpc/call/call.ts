/**
 * One gRPC call on one HTTP/2 stream: reads its request messages (length-prefixed across DATA
 * chunks, inflated when the client compressed them, bounded by the receive limit), writes its
 * response messages behind the response headers, and ends it with trailers — or with a
 * trailers-only response when nothing was sent. A deadline (grpc-timeout) ends it with
 * DEADLINE_EXCEEDED; a deadline or the client going away (RST_STREAM, a dropped connection)
 * runs the onCancel callbacks, as grpc-js's 'cancelled' does.
 */
import type { CallStream, RequestHeaders, ResponseHeaders } from "./stream.ts";
import { Code, type GrpcStatus } from "../status.ts";
import { inflate } from "./compression.ts";
import { timeoutMs } from "./deadline.ts";
import { MessageReader, Overloaded, TooLarge, type PartialBytes } from "./framing.ts";

/** What grpc-js answers with (it advertises the encodings it accepts, and sends none). */
const RESPONSE_HEADERS = {
  ":status": 200,
  "content-type": "application/grpc+proto",
  "grpc-accept-encoding": "identity,deflate,gzip",
  "grpc-encoding": "identity",
};
const WAIT_FOR_TRAILERS = { waitForTrailers: true };
const END_STREAM = { endStream: true };

function trailers(s: GrpcStatus): ResponseHeaders {
  const t: ResponseHeaders = { "grpc-status": s.code };
  if (s.details) t["grpc-message"] = encodeURI(s.details.toWellFormed());
  if (s.detailsBin) t["grpc-status-details-bin"] = s.detailsBin.toString("base64");
  return t;
}

/** Answers a stream that never became a call (unknown method) with a trailers-only status. */
export function trailersOnly(stream: CallStream, s: GrpcStatus): void {
  if (stream.destroyed || stream.closed) return;
  try {
    stream.respond({ ":status": 200, "content-type": "application/grpc+proto", ...trailers(s) }, END_STREAM);
  } catch {
    // The client reset the stream meanwhile: nothing is owed.
  }
}

export class Call {
  private headersSent = false;
  /** The status was sent, or the client went away: nothing more is written. */
  private done = false;
  private cancelled = false;
  private cancels: (() => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly reader: MessageReader;
  /** The last message's pooled body, until giveBack or the next message. */
  private lent: Buffer | null = null;
  private readonly encoding: string;

  constructor(
    private readonly stream: CallStream,
    headers: RequestHeaders,
    private readonly max: number,
    partial?: PartialBytes,
  ) {
    this.reader = new MessageReader(max, partial);
    const enc = headers["grpc-encoding"];
    this.encoding = typeof enc === "string" ? enc : "identity";
    stream.on("close", () => {
      this.reader.release();
      if (!this.done) this.cancel();
    });
    const ms = timeoutMs(headers["grpc-timeout"]);
    // grpc-js answers INTERNAL to a grpc-timeout that does not parse; what a client sends is never INTERNAL here.
    if (Number.isNaN(ms)) queueMicrotask(() => this.finish({ code: Code.INVALID_ARGUMENT, details: "The grpc-timeout header is not a valid timeout." }));
    else if (ms !== null) {
      this.timer = setTimeout(() => {
        this.finish({ code: Code.DEADLINE_EXCEEDED, details: "Deadline exceeded" });
        this.cancel();
      }, ms);
    }
  }

  get ended(): boolean {
    return this.done;
  }

  /** Runs `fn` when the call is cancelled (deadline, client gone); at once if it already was. */
  onCancel(fn: () => void): void {
    if (this.cancelled) fn();
    else this.cancels.push(fn);
  }

  /** Runs `fn` each time the stream's buffer has room again after a send() answered false. */
  onDrain(fn: () => void): void {
    this.stream.on("drain", fn);
  }

  /**
   * Feeds each request message's bytes (inflated) to `onMessage` and the client's half-close to
   * `onEnd`; a message past the limit or that does not inflate ends the call. With `late`,
   * messages that arrive after the call ended (acks sent before the client saw the end) are
   * still fed.
   */
  read(onMessage: (body: Buffer) => void, onEnd: () => void, late = false): void {
    let broken = false;
    this.stream.on("data", (chunk: Buffer) => {
      if (broken || (this.done && !late)) return;
      let messages;
      try {
        messages = this.reader.push(chunk);
      } catch (e) {
        if (!(e instanceof TooLarge || e instanceof Overloaded)) throw e;
        // The framing is lost from here: nothing more of this stream is read.
        broken = true;
        this.reader.release();
        return this.finish({ code: Code.RESOURCE_EXHAUSTED, details: e.message });
      }
      for (const m of messages) {
        const body = m.compressed ? inflate(m.body, this.encoding, this.max) : m.body;
        if (m.pooled && body !== m.body) this.reader.giveBack(m.body);
        if (!Buffer.isBuffer(body)) return this.finish(body);
        this.lent = m.pooled && body === m.body ? body : null;
        onMessage(body);
        if (this.done && !late) return;
      }
    });
    this.stream.on("end", () => {
      if (!this.done) onEnd();
    });
  }

  /**
   * The handler of the last message read says nothing kept a view into it (a Publish whose
   * messages no one holds): its pooled buffer is used again for a later request.
   */
  giveBack(): void {
    if (this.lent) this.reader.giveBack(this.lent);
    this.lent = null;
  }

  /** Bytes the stream can take now without holding them (the raw server's streams know; node:http2's do not: Infinity). */
  room(): number {
    return this.stream.room?.() ?? Infinity;
  }

  /** Writes one framed response message; false when the stream's buffer is full (wait for 'drain'). */
  send(frame: Buffer): boolean {
    if (this.done || this.stream.destroyed) return true;
    if (!this.headersSent) {
      this.headersSent = true;
      this.stream.respond(RESPONSE_HEADERS, WAIT_FOR_TRAILERS);
    }
    return this.stream.write(frame);
  }

  /** Ends the call with `status`, after `last` (a framed message) when given. */
  finish(status: GrpcStatus, last?: Buffer): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    const stream = this.stream;
    if (stream.destroyed || stream.closed) return;
    try {
      if (!this.headersSent && !last) {
        stream.respond({ ":status": 200, "content-type": "application/grpc+proto", ...trailers(status) }, END_STREAM);
        return;
      }
      if (!this.headersSent) {
        this.headersSent = true;
        stream.respond(RESPONSE_HEADERS, WAIT_FOR_TRAILERS);
      }
      stream.once("wantTrailers", () => {
        try {
          stream.sendTrailers(trailers(status));
        } catch {
          // Reset meanwhile.
        }
      });
      if (last) stream.end(last);
      else stream.end();
    } catch {
      // The client reset the stream between our check and the write: nothing is owed.
    }
  }

  private cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.done = true;
    clearTimeout(this.timer);
    const fns = this.cancels;
    this.cancels = [];
    for (const fn of fns) fn();
  }
}

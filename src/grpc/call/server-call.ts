/**
 * One call as its handler (handlers.ts) sees it, whatever carries it: the call layer's Call with
 * its method's codec (codecCall, below, for the raw and lean servers) or a grpc-js call
 * (grpc-js/calls.ts). As nice-grpc's CallContext: each call shape's handler is written once,
 * over this, and knows no transport.
 */
import { withFrame } from "../framed.ts";
import { Code, statusOf, type GrpcStatus } from "../status.ts";
import type { Call } from "./call.ts";

export const OK: GrpcStatus = { code: Code.OK, details: "" };

export interface ServerCall<Req, Res> {
  /** The method's path, for the messages that name it. */
  readonly path: string;
  /**
   * Each request message (decoded: a malformed one is the marker checkDecoded throws for), then
   * the client's half-close. With `late`, messages that arrive after the call ended are fed too.
   */
  read(onMessage: (req: Req) => void, onEnd: () => void, late?: boolean): void;
  /** Ends the call with `res`, its one response, and OK (or the status `res` cannot be sent with). */
  reply(res: Res): void;
  /** Ends the call with `status`. */
  end(status: GrpcStatus): void;
  /** Runs `fn` when the call is cancelled (deadline, client gone); at once if it already was. */
  onCancel(fn: () => void): void;
  /** The answer kept no view into the request (ReleasesRequest): its pooled bytes may be used again. */
  giveBack?(): void;
}

/** A call whose responses are a stream. */
export interface StreamingCall<Req, Res> extends ServerCall<Req, Res> {
  /** The status was sent, or the client went away. */
  readonly ended: boolean;
  /**
   * One response message: true, or false when the transport's buffer is full (wait for
   * onDrain); a status when it cannot be sent (too large, does not encode), which the caller
   * ends the call with.
   */
  send(res: Res): boolean | GrpcStatus;
  onDrain(fn: () => void): void;
  /** Bytes a response can take now without waiting; Infinity when the transport cannot tell. */
  room(): number;
}

/** A method's codecs as the call layer uses them. */
export interface Codec<Req = unknown, Res = unknown> {
  path: string;
  /** Never throws (methods.ts makes every decoder malformed-safe). */
  decode(b: Buffer): Req;
  encode(v: Res): Uint8Array;
  max: number;
}

function framed<Res>(codec: Codec<unknown, Res>, value: Res): Buffer | GrpcStatus {
  try {
    const frame = withFrame(codec.encode(value));
    if (frame.length - 5 > codec.max) return { code: Code.RESOURCE_EXHAUSTED, details: `Sent message larger than max (${frame.length} vs. ${codec.max})` };
    return frame;
  } catch (e) {
    return statusOf(e);
  }
}

/** A call of the raw and lean servers: messages decoded and encoded with the method's codec. */
export function codecCall<Req, Res>(call: Call, codec: Codec<Req, Res>): StreamingCall<Req, Res> {
  return {
    path: codec.path,
    get ended() {
      return call.ended;
    },
    read: (onMessage, onEnd, late) => call.read((b) => onMessage(codec.decode(b)), onEnd, late),
    send(res) {
      const frame = framed(codec, res);
      return Buffer.isBuffer(frame) ? call.send(frame) : frame;
    },
    reply(res) {
      const frame = framed(codec, res);
      if (Buffer.isBuffer(frame)) call.finish(OK, frame);
      else call.finish(frame);
    },
    end: (status) => call.finish(status),
    giveBack: () => call.giveBack(),
    onCancel: (fn) => call.onCancel(fn),
    onDrain: (fn) => call.onDrain(fn),
    room: () => call.room(),
  };
}

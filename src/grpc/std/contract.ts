/**
 * The standard gRPC services' methods (health, reflection) in one shape every server carries:
 * the call layer (call/routes.ts, for raw and lean) and grpc-js (grpc-js/std.ts). A method is its
 * path and shape; what serves it (codecs, handler, the descriptors) is loaded on its first call,
 * with a literal import() each, so the compiled binary keeps them in chunks it reads only then.
 */
import { Code, statusOf, type GrpcStatus } from "../status.ts";

/** A request these services read is a name or two: past this it is refused, not echoed back. */
export const STD_MAX_REQUEST = 64 * 1024;

/** What a handler answers through. */
export interface Outbound {
  /** Queued behind what was sent before (these services send little, so they never wait for a drain). */
  send(message: unknown): void;
  end(status: GrpcStatus): void;
}

/** One call, fed by the transport: each decoded request, the client's half-close, cancellation. */
export interface StdCall {
  message(request: unknown): void;
  halfClose(): void;
  cancel(): void;
}

export interface StdHandler {
  /** A request, or a Refusal when it is too large or does not decode (never throws). */
  decode(b: Buffer): unknown;
  encode(v: unknown): Uint8Array;
  open(out: Outbound): StdCall;
}

export interface StdMethod {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  load(): Promise<StdHandler>;
}

/** A request the codec refused: the call ends with this status. */
export class Refusal {
  constructor(readonly status: GrpcStatus) {}
}

/**
 * The call shapes with one request (unary, server streaming) as grpc-js enforces them: a second
 * request, or none before the half-close, ends the call with UNIMPLEMENTED.
 */
export function oneRequest(path: string, out: Outbound, handle: (request: unknown) => StdCall | void): StdCall {
  let got = false;
  let inner: StdCall | void;
  return {
    message(request) {
      if (got) return out.end({ code: Code.UNIMPLEMENTED, details: `Received a second request message for server streaming method ${path}` });
      got = true;
      if (request instanceof Refusal) return out.end(request.status);
      inner = handle(request);
    },
    halfClose() {
      if (!got) out.end({ code: Code.UNIMPLEMENTED, details: `Received no request message for server streaming method ${path}` });
    },
    cancel: () => inner?.cancel(),
  };
}

/** What a transport gives a standard call: encoded messages out, and the end. */
export interface Wire {
  send(bytes: Uint8Array): void;
  end(status: GrpcStatus): void;
}

/**
 * A call fed to its handler once the method is loaded, in the order the transport gave each
 * event: request bytes are decoded, answers encoded, here.
 */
export function whenLoaded(method: StdMethod, wire: Wire): { message(b: Buffer): void; halfClose(): void; cancel(): void } {
  const ready = method.load().then((h) => {
    const out: Outbound = {
      send(message) {
        try {
          wire.send(h.encode(message));
        } catch (e) {
          wire.end(statusOf(e));
        }
      },
      end: (status) => wire.end(status),
    };
    return { h, call: h.open(out) };
  });
  ready.catch((e: unknown) => wire.end(statusOf(e)));
  // A load that failed was answered above, once: the events after it have nothing to do.
  const then = (fn: (r: Awaited<typeof ready>) => void) =>
    void ready.then((r) => {
      try {
        fn(r);
      } catch (e) {
        // A bug: INTERNAL, counted, and the call ends rather than hangs.
        wire.end(statusOf(e));
      }
    }, () => {});
  return {
    message: (b) => then((r) => r.call.message(r.h.decode(b))),
    halfClose: () => then((r) => r.call.halfClose()),
    cancel: () => then((r) => r.call.cancel()),
  };
}

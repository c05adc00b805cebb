/**
 * The standard gRPC services' methods (health, reflection) in one shape every server carries:
 * the lean layer (lean/routes.ts, for raw and lean) and grpc-js (std/grpc-js.ts). Their codecs
 * are protobufjs types from descriptors.ts, made on the method's first call.
 */
import { echo } from "../../core/bounded.ts";
import { Code, type GrpcStatus } from "../status.ts";
import { descriptors } from "./descriptors.ts";

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

export interface StdMethod {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  /** A request, or a Refusal when it is too large or does not decode (never throws). */
  decode(b: Buffer): unknown;
  encode(v: unknown): Uint8Array;
  open(out: Outbound): StdCall;
}

/** A request the codec refused: the call ends with this status. */
export class Refusal {
  constructor(readonly status: GrpcStatus) {}
}

const TO_OBJECT = { longs: Number, enums: String, defaults: false, oneofs: true };

/** A codec over the message type `name`, looked up on first use. */
export function codec(requestType: string, responseType: string): Pick<StdMethod, "decode" | "encode"> {
  return {
    decode(b) {
      if (b.length > STD_MAX_REQUEST) return new Refusal({ code: Code.RESOURCE_EXHAUSTED, details: `Received message larger than max (${b.length} vs. ${STD_MAX_REQUEST})` });
      const type = descriptors().type(requestType);
      try {
        return type.toObject(type.decode(b), TO_OBJECT);
      } catch (e) {
        return new Refusal({ code: Code.INVALID_ARGUMENT, details: `The request could not be decoded as ${requestType}: ${echo((e as Error).message)}` });
      }
    },
    encode(v) {
      const type = descriptors().type(responseType);
      return type.encode(type.fromObject(v as Record<string, unknown>)).finish();
    },
  };
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

/** The one place a gRPC status code is chosen for an error (transport-neutral: no grpc-js here). */
import { boundMessage } from "../core/bounded.ts";
import { outOfMemory, PubSubError, type ErrorCode } from "../core/errors.ts";
import { reportInternal } from "../runtime/internal-errors.ts";
import { log } from "../runtime/log.ts";
import { encodeStatus } from "./status-details.ts";

/** Most bytes of grpc-status-details-bin (sent base64: 4/3 of it) beside a bounded message. */
const DETAILS_MAX = 3072;

/** gRPC status codes (grpc/status.proto's numbers). */
export const Code = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const satisfies Record<ErrorCode | "OK", number>;

/** A call's final status: code, message and the serialized google.rpc.Status when there are details. */
export interface GrpcStatus {
  code: number;
  details: string;
  detailsBin?: Buffer;
}

/**
 * A PubSubError becomes its status; anything else is a bug: INTERNAL, logged and counted. The
 * message is bounded here too, as a status message past the client's metadata limit is never
 * delivered and leaves the call hanging.
 */
export function statusOf(err: unknown): GrpcStatus {
  err = outOfMemory(err) ?? err;
  if (err instanceof PubSubError) {
    const details = boundMessage(err.message);
    const code = Code[err.code];
    if (!err.details.length) return { code, details };
    const status = encodeStatus(code, details, err.details);
    // Both trailers must fit the client's metadata limit (8 KiB in grpc-js and grpc-java).
    if (status.length <= DETAILS_MAX) return { code, details, detailsBin: status };
    log.debug(`status details of ${status.length} bytes left out: ${details}`);
    return { code, details };
  }
  reportInternal(err);
  return { code: Code.INTERNAL, details: boundMessage(`Internal error: ${err instanceof Error ? err.message : String(err)}`) };
}

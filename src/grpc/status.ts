/** The one place a gRPC status code is chosen for an error. */
import * as grpc from "@grpc/grpc-js";
import { boundMessage } from "../core/bounded.ts";
import { PubSubError, type ErrorCode } from "../core/errors.ts";
import { reportInternal } from "../runtime/internal-errors.ts";
import { log } from "../runtime/log.ts";
import { encodeStatus } from "./status-details.ts";

/** Most bytes of grpc-status-details-bin (sent base64: 4/3 of it) beside a bounded message. */
const DETAILS_MAX = 3072;

const CODES: Record<ErrorCode, grpc.status> = {
  INVALID_ARGUMENT: grpc.status.INVALID_ARGUMENT,
  NOT_FOUND: grpc.status.NOT_FOUND,
  ALREADY_EXISTS: grpc.status.ALREADY_EXISTS,
  FAILED_PRECONDITION: grpc.status.FAILED_PRECONDITION,
  RESOURCE_EXHAUSTED: grpc.status.RESOURCE_EXHAUSTED,
  ABORTED: grpc.status.ABORTED,
  UNIMPLEMENTED: grpc.status.UNIMPLEMENTED,
  UNAVAILABLE: grpc.status.UNAVAILABLE,
  CANCELLED: grpc.status.CANCELLED,
  INTERNAL: grpc.status.INTERNAL,
  DEADLINE_EXCEEDED: grpc.status.DEADLINE_EXCEEDED,
  UNKNOWN: grpc.status.UNKNOWN,
  PERMISSION_DENIED: grpc.status.PERMISSION_DENIED,
  UNAUTHENTICATED: grpc.status.UNAUTHENTICATED,
};

/**
 * A PubSubError becomes its status; anything else is a bug: INTERNAL, logged and counted. The
 * message is bounded here too, as a status message past the client's metadata limit is never
 * delivered and leaves the call hanging.
 */
export function toStatus(err: unknown): grpc.ServiceError {
  if (err instanceof PubSubError) {
    const details = boundMessage(err.message);
    const metadata = new grpc.Metadata();
    const code = CODES[err.code];
    if (err.details.length) {
      const status = encodeStatus(code, details, err.details);
      // Both trailers must fit the client's metadata limit (8 KiB in grpc-js and grpc-java).
      if (status.length <= DETAILS_MAX) metadata.set("grpc-status-details-bin", status);
      else log.debug(`status details of ${status.length} bytes left out: ${details}`);
    }
    return Object.assign(new Error(details), { code, details, metadata });
  }
  reportInternal(err);
  const details = boundMessage(`Internal error: ${err instanceof Error ? err.message : String(err)}`);
  return Object.assign(new Error(details), { code: grpc.status.INTERNAL, details, metadata: new grpc.Metadata() });
}

export const unimplemented = (method: string) =>
  new PubSubError("UNIMPLEMENTED", `${method} is not implemented by this emulator yet.`);

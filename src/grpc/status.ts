/** The one place a gRPC status code is chosen for an error. */
import * as grpc from "@grpc/grpc-js";
import { PubSubError, type ErrorCode } from "../core/errors.ts";
import { log } from "../log.ts";
import { encodeStatus } from "./status-details.ts";

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

/** A PubSubError becomes its status; anything else is a bug: INTERNAL, logged. */
export function toStatus(err: unknown): grpc.ServiceError {
  if (err instanceof PubSubError) {
    const metadata = new grpc.Metadata();
    const code = CODES[err.code];
    if (err.details.length) metadata.set("grpc-status-details-bin", encodeStatus(code, err.message, err.details));
    return Object.assign(new Error(err.message), { code, details: err.message, metadata });
  }
  log.error("internal error", err);
  const message = err instanceof Error ? err.message : String(err);
  return Object.assign(new Error(message), {
    code: grpc.status.INTERNAL,
    details: `Internal error: ${message}`,
    metadata: new grpc.Metadata(),
  });
}

export const unimplemented = (method: string) =>
  new PubSubError("UNIMPLEMENTED", `${method} is not implemented by this emulator yet.`);

/** The one place a gRPC status code is chosen for an error. */
import * as grpc from "@grpc/grpc-js";
import { boundMessage } from "../core/bounded.ts";
import { PubSubError, type ErrorCode } from "../core/errors.ts";
import { reportInternal } from "../internal-errors.ts";

const CODES: Record<ErrorCode, grpc.status> = {
  INVALID_ARGUMENT: grpc.status.INVALID_ARGUMENT,
  NOT_FOUND: grpc.status.NOT_FOUND,
  ALREADY_EXISTS: grpc.status.ALREADY_EXISTS,
  FAILED_PRECONDITION: grpc.status.FAILED_PRECONDITION,
  RESOURCE_EXHAUSTED: grpc.status.RESOURCE_EXHAUSTED,
  UNIMPLEMENTED: grpc.status.UNIMPLEMENTED,
  UNAVAILABLE: grpc.status.UNAVAILABLE,
  CANCELLED: grpc.status.CANCELLED,
  INTERNAL: grpc.status.INTERNAL,
};

/**
 * A PubSubError becomes its status; anything else is a bug: INTERNAL, logged and counted. The
 * message is bounded here too, as a status message past the client's metadata limit is never
 * delivered and leaves the call hanging.
 */
export function toStatus(err: unknown): grpc.ServiceError {
  if (err instanceof PubSubError) {
    const details = boundMessage(err.message);
    return Object.assign(new Error(details), { code: CODES[err.code], details, metadata: new grpc.Metadata() });
  }
  reportInternal(err);
  const details = boundMessage(`Internal error: ${err instanceof Error ? err.message : String(err)}`);
  return Object.assign(new Error(details), { code: grpc.status.INTERNAL, details, metadata: new grpc.Metadata() });
}

export const unimplemented = (method: string) =>
  new PubSubError("UNIMPLEMENTED", `${method} is not implemented by this emulator yet.`);

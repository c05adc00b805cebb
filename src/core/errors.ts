/** The one error type of the core. Transports map `code` to their own status in one place each. */
import { boundMessage, echo } from "./bounded.ts";

export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "FAILED_PRECONDITION"
  | "RESOURCE_EXHAUSTED"
  | "ABORTED"
  | "UNIMPLEMENTED"
  | "UNAVAILABLE"
  | "CANCELLED"
  | "INTERNAL"
  // Never chosen by the core; fault injection sends them as the real service sometimes does.
  | "DEADLINE_EXCEEDED"
  | "UNKNOWN"
  | "PERMISSION_DENIED"
  | "UNAUTHENTICATED";

/**
 * google.rpc error details a client can act on; each transport sends them its way (gRPC in
 * grpc-status-details-bin, REST in the body's `details`). Metadata is a list of pairs because its
 * keys (ack ids) come from clients.
 */
export type ErrorDetail =
  | { kind: "ErrorInfo"; reason: string; domain: string; metadata: ReadonlyArray<readonly [string, string]> }
  | { kind: "BadRequest"; fieldViolations: ReadonlyArray<{ field: string; description: string }> }
  | { kind: "RetryInfo"; retryDelayMs: number };

export class PubSubError extends Error {
  readonly details: readonly ErrorDetail[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    details: readonly ErrorDetail[] = [],
  ) {
    // Bounded here so no transport is ever handed a message it cannot carry.
    super(boundMessage(message));
    this.name = "PubSubError";
    this.details = details.map(boundDetail);
  }
}

/** Detail strings echo client input as messages do: each is cut the same way. */
function boundDetail(d: ErrorDetail): ErrorDetail {
  switch (d.kind) {
    case "BadRequest":
      return { ...d, fieldViolations: d.fieldViolations.map((v) => ({ field: echo(v.field, 256), description: boundMessage(v.description, 1024) })) };
    case "ErrorInfo":
      return { ...d, reason: echo(d.reason), domain: echo(d.domain), metadata: d.metadata.map(([k, v]) => [echo(k), echo(v, 300)] as const) };
    default:
      return d;
  }
}

export const invalid = (message: string) => new PubSubError("INVALID_ARGUMENT", message);
export const failedPrecondition = (message: string) => new PubSubError("FAILED_PRECONDITION", message);
/** Wording of the real service, which clients and people grep for. */
export const notFound = (resource: string) =>
  new PubSubError("NOT_FOUND", `Resource not found (resource=${echo(resource, 300)}).`);
export const alreadyExists = (resource: string) =>
  new PubSubError("ALREADY_EXISTS", `Resource already exists in the project (resource=${echo(resource, 300)}).`);

/** Client strings in error messages are cut, so an error never grows with the request. */
export const bounded = (s: string, max = 200) => echo(s, max);

/**
 * An allocation that failed while serving a request (the engine's "Out of memory" RangeError,
 * met at the edge of a memory cap before the budget's next sample saw it) is the server's memory
 * exhausted, which the real service answers RESOURCE_EXHAUSTED: retryable, and no bug of ours.
 */
export function outOfMemory(err: unknown): PubSubError | null {
  if (!(err instanceof RangeError) || !/out of memory/i.test(err.message)) return null;
  return new PubSubError(
    "RESOURCE_EXHAUSTED",
    "The emulator ran out of memory serving this request (past its memory budget or the process's limits). Acknowledge or drop messages, or raise --max-memory or the limit.",
  );
}

/** The one error type of the core. Transports map `code` to their own status in one place each. */
import { boundMessage, echo } from "./bounded.ts";

export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "FAILED_PRECONDITION"
  | "RESOURCE_EXHAUSTED"
  | "UNIMPLEMENTED"
  | "UNAVAILABLE"
  | "CANCELLED"
  | "INTERNAL";

export class PubSubError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    // Bounded here so no transport is ever handed a message it cannot carry.
    super(boundMessage(message));
    this.name = "PubSubError";
  }
}

export const invalid = (message: string) => new PubSubError("INVALID_ARGUMENT", message);
export const failedPrecondition = (message: string) => new PubSubError("FAILED_PRECONDITION", message);
/** Wording of the real service, which clients and people grep for. */
export const notFound = (resource: string) =>
  new PubSubError("NOT_FOUND", `Resource not found (resource=${echo(resource, 300)}).`);
export const alreadyExists = (resource: string) =>
  new PubSubError("ALREADY_EXISTS", `Resource already exists in the project (resource=${echo(resource, 300)}).`);

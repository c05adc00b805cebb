/** The one error the test API's methods reject with, in process as from a child process. */
import { PubSubError } from "../core/errors.ts";
import { HttpError, statusName } from "../admin/router.ts";

export class EmulatorError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "EmulatorError";
  }
}

/** What the operator functions throw, as the HTTP answer would name it. */
export function asEmulatorError(e: unknown): unknown {
  if (e instanceof PubSubError) return new EmulatorError(e.code, e.message);
  if (e instanceof HttpError) return new EmulatorError(statusName(e.status), e.message);
  return e;
}

/**
 * A request body that does not decode must become INVALID_ARGUMENT, not grpc-js's INTERNAL:
 * deserializers return a marker instead of throwing, and the handlers turn it into the error.
 */
import { invalid } from "../core/errors.ts";

const MALFORMED = Symbol("malformed");

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function malformedSafe(decode: (b: Buffer) => any): (b: Buffer) => any {
  return (b) => {
    try {
      return decode(b);
    } catch (e) {
      return { [MALFORMED]: (e as Error).message };
    }
  };
}

/** Throws INVALID_ARGUMENT when the request did not decode. */
export function checkDecoded(req: unknown): void {
  const why = (req as { [MALFORMED]?: string } | null)?.[MALFORMED];
  if (why !== undefined) throw invalid(`The request could not be decoded as a protocol buffer: ${why}.`);
}

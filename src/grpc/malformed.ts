/**
 * A request body that does not decode must become INVALID_ARGUMENT, not grpc-js's INTERNAL:
 * deserializers return a marker instead of throwing, and the handlers turn it into the error.
 */
import { invalid } from "../core/errors.ts";

const MALFORMED = Symbol("malformed");

/** A decoding failure whose message is already the whole answer (it names the field). */
export class BadField extends Error {}

/** The real service rejects a `string` field that is not UTF-8 (protobufjs would decode it lossily). */
export const invalidUtf8 = (field: string) =>
  new BadField(`Invalid UTF-8 in the ${field} field: string fields must be valid UTF-8.`);

/**
 * A decoder that never throws: what does not decode becomes a marker, typed as the request so a
 * handler's first step (checkDecoded) is where it turns into INVALID_ARGUMENT.
 */
export function malformedSafe<T>(decode: (b: Buffer) => T): (b: Buffer) => T {
  return (b) => {
    try {
      return decode(b);
    } catch (e) {
      const why = e instanceof BadField ? e.message : `The request could not be decoded as a protocol buffer: ${(e as Error).message}.`;
      return { [MALFORMED]: why } as T;
    }
  };
}

/** Throws INVALID_ARGUMENT when the request did not decode. */
export function checkDecoded(req: unknown): void {
  const why = (req as { [MALFORMED]?: string } | null)?.[MALFORMED];
  if (why !== undefined) throw invalid(why);
}

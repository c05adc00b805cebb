/** What a schema revision compiles to, and helpers its compilers share. */
import { bounded } from "../errors.ts";

export type SchemaType = "AVRO" | "PROTOCOL_BUFFER";
export type Encoding = "JSON" | "BINARY";

export interface CompiledSchema {
  /** null when `data` conforms in `encoding`; otherwise what is wrong (bounded). */
  check(data: Uint8Array, encoding: Encoding): string | null;
  /** null when this definition may follow `previous` as a new revision; otherwise why not. */
  canFollow(previous: CompiledSchema): string | null;
}

export const errorText = (e: unknown) => bounded(e instanceof Error ? e.message : String(e));

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Message data as UTF-8 text, or null when it is not valid UTF-8. */
export function utf8Text(data: Uint8Array): string | null {
  try {
    return utf8.decode(data);
  } catch {
    return null;
  }
}

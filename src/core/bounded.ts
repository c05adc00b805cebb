/**
 * Bounds on what an error message may carry. Client input echoed into a message is cut to a
 * readable length, and a whole status message is cut to what every transport carries: a gRPC
 * status message travels percent-encoded in a trailer, and clients drop (or hang on) trailers
 * past their metadata limit (8 KiB by default in grpc-js and grpc-java).
 */

/** Most UTF-16 units of one client value quoted in a message. */
export const ECHO_MAX = 128;
/** Most bytes a status message takes once percent-encoded (the worst case of the transports). */
export const MESSAGE_MAX_ENCODED = 2048;

/**
 * Client input as it may appear in a message: at most `max` UTF-16 units, cut on a code point
 * boundary, lone surrogates replaced, with a marker saying how much was left out.
 */
export function echo(value: unknown, max = ECHO_MAX): string {
  const s = String(value);
  if (s.length <= max) return wellFormed(s);
  let cut = max;
  if (isHighSurrogate(s.charCodeAt(cut - 1))) cut--;
  return `${wellFormed(s.slice(0, cut))}…[${s.length - cut} more characters]`;
}

/** A whole status message, cut so that its percent-encoded form fits MESSAGE_MAX_ENCODED bytes. */
export function boundMessage(message: string, maxEncoded = MESSAGE_MAX_ENCODED): string {
  const s = wellFormed(message);
  // Fast path: short messages cannot exceed the bound (each unit encodes to at most 9 bytes).
  if (s.length * 9 <= maxEncoded) return s;
  const marker = "…[message truncated]";
  const budget = maxEncoded - 60;
  let size = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = isHighSurrogate(c) && i + 1 < s.length;
    size += encodedSize(c);
    if (size > budget) return s.slice(0, i) + marker;
    if (pair) i++;
  }
  return s;
}

/** Bytes a UTF-16 unit (a surrogate pair counted at its high half) takes percent-encoded. */
function encodedSize(c: number): number {
  if (c >= 0x21 && c < 0x7f) return c === 0x25 ? 3 : 1;
  if (c < 0x80) return 3;
  if (c < 0x800) return 6;
  if (isHighSurrogate(c)) return 12;
  return 9;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** Lone surrogates (which no transport can encode) become U+FFFD. */
export function wellFormed(s: string): string {
  return s.isWellFormed() ? s : s.toWellFormed();
}

/** Bytes as base64 and back (the JS built-ins; the core has no Buffer): bytes kept in JSON records. */
type Base64Bytes = Uint8Array & { toBase64(): string };

export const toBase64 = (b: Uint8Array): string => (b as Base64Bytes).toBase64();

export const fromBase64 = (s: string): Uint8Array => (Uint8Array as unknown as { fromBase64(s: string): Uint8Array }).fromBase64(s);

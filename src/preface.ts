/**
 * Tells a gRPC connection from an HTTP/1.1 one by its first bytes. A gRPC (HTTP/2 prior
 * knowledge) client opens with the 24-byte magic and a SETTINGS frame, which may arrive split
 * across TCP segments: the answer is "wait" until the magic and that frame are complete, or
 * until a byte shows it is not HTTP/2.
 */
const MAGIC = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
const FRAME_HEADER = 9;
const SETTINGS = 4;
/** A peer may not send a larger frame before the settings are agreed (RFC 9113 §4.2). */
const MAX_FRAME = 16_384;

export type Sniffed = "grpc" | "http" | "wait";

export function sniff(head: Buffer): Sniffed {
  const n = Math.min(head.length, MAGIC.length);
  if (head.compare(MAGIC, 0, n, 0, n) !== 0) return "http";
  if (head.length < MAGIC.length + FRAME_HEADER) return "wait";
  // Not a SETTINGS frame: a protocol error, which the HTTP/2 server answers (GOAWAY) itself.
  if (head[MAGIC.length + 3] !== SETTINGS) return "grpc";
  const length = head.readUIntBE(MAGIC.length, 3);
  return length <= MAX_FRAME && head.length < MAGIC.length + FRAME_HEADER + length ? "wait" : "grpc";
}

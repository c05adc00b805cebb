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

/** "bad": the magic, then something no HTTP/2 client sends first; the connection is closed. */
export type Sniffed = "grpc" | "http" | "wait" | "bad";

export function sniff(head: Buffer): Sniffed {
  const n = Math.min(head.length, MAGIC.length);
  if (head.compare(MAGIC, 0, n, 0, n) !== 0) return "http";
  if (head.length < MAGIC.length + FRAME_HEADER) return "wait";
  const length = head.readUIntBE(MAGIC.length, 3);
  const type = head[MAGIC.length + 3];
  const ack = head[MAGIC.length + 4] & 1;
  // RFC 9113 §3.4: the preface's SETTINGS frame (no ACK, a multiple of 6 bytes) comes first.
  if (type !== SETTINGS || ack || length % 6 !== 0 || length > MAX_FRAME) return "bad";
  return head.length < MAGIC.length + FRAME_HEADER + length ? "wait" : "grpc";
}

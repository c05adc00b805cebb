/**
 * Tells a gRPC connection from an HTTP/1.1 one by its first bytes. A gRPC (HTTP/2 prior
 * knowledge) client opens with the 24-byte magic and a SETTINGS frame, which may arrive split
 * across TCP segments: the answer is "wait" until the magic and that frame are complete, or
 * until a byte shows it is not HTTP/2. Anything else must open with an HTTP/1.x request line;
 * a connection that is neither (RFC 9113 §3.4: an invalid preface) is closed without an answer.
 */
const MAGIC = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
const FRAME_HEADER = 9;
const SETTINGS = 4;
/** A peer may not send a larger frame before the settings are agreed (RFC 9113 §4.2). */
const MAX_FRAME = 16_384;

/** A request line longer than this is left to the HTTP server to refuse (414). */
const MAX_LINE = 8 * 1024;
/** An HTTP/1.x request line (RFC 9112 §3): a method token, a target, the version. */
const REQUEST_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ [^ ]+ HTTP\/1\.[0-9]\r?$/;
const TOKEN_SO_FAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]*( [^ \r\n]*)?( [^\r\n]*)?$/;

/** "bad": neither an HTTP/2 preface nor an HTTP/1.x request; the connection is closed. */
export type Sniffed = "grpc" | "http" | "wait" | "bad";

export function sniff(head: Buffer): Sniffed {
  const n = Math.min(head.length, MAGIC.length);
  if (head.compare(MAGIC, 0, n, 0, n) !== 0) return requestLine(head);
  if (head.length < MAGIC.length + FRAME_HEADER) return "wait";
  const length = head.readUIntBE(MAGIC.length, 3);
  const type = head[MAGIC.length + 3];
  const ack = head[MAGIC.length + 4] & 1;
  // RFC 9113 §3.4: the preface's SETTINGS frame (no ACK, a multiple of 6 bytes) comes first.
  if (type !== SETTINGS || ack || length % 6 !== 0 || length > MAX_FRAME) return "bad";
  return head.length < MAGIC.length + FRAME_HEADER + length ? "wait" : "grpc";
}

/** "http" once the first line is an HTTP/1.x request line; "bad" as soon as it cannot become one. */
function requestLine(head: Buffer): Sniffed {
  // A server should ignore empty lines before the request line (RFC 9112 §2.2).
  let start = 0;
  while (start < head.length && (head[start] === 0x0d || head[start] === 0x0a)) start++;
  const end = head.indexOf(0x0a, start);
  if (end < 0) {
    if (head.length > MAX_LINE) return "http";
    return TOKEN_SO_FAR.test(head.latin1Slice!(start, head.length)) ? "wait" : "bad";
  }
  return REQUEST_LINE.test(head.latin1Slice!(start, end)) ? "http" : "bad";
}

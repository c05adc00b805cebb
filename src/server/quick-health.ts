/**
 * Health probes answered on the raw front (server/raw-front.ts) without starting the HTTP server:
 * a Docker HEALTHCHECK or a Kubernetes probe every few seconds would otherwise load node:http
 * (≈ 8 MiB of RSS) into a server that serves only gRPC. Only the plainest requests qualify —
 * `GET` or `HEAD` of exactly `/health` or `/`, HTTP/1.0 or 1.1, no body, no `Expect` — and get
 * the bytes the HTTP server (admin/health.ts) sends for them; anything else, or anything odd, is
 * relayed to the HTTP server untouched.
 */
import { HEALTH_BODY, ROOT_BODY } from "../http/probes.ts";

export type Quick = "wait" | "relay" | { reply: Buffer; close: boolean; rest: Buffer };

/** Longest request head looked at here; a longer one is relayed. */
const MAX_HEAD = 8 * 1024;
const LINE = /^(GET|HEAD) (\/|\/health) HTTP\/1\.([01])$/;
const CANDIDATES = ["GET /", "HEAD /"];
const END = Buffer.from("\r\n\r\n", "latin1");

function httpDate(): string {
  return new Date().toUTCString();
}

export function quickHealth(head: Buffer): Quick {
  const end = head.indexOf(END);
  if (bareLf(head, end < 0 ? head.length : end)) return "relay";
  if (end < 0) {
    if (head.length > MAX_HEAD) return "relay";
    const start = head.latin1Slice!(0, Math.min(head.length, 6));
    return CANDIDATES.some((c) => c.startsWith(start) || start.startsWith(c)) ? "wait" : "relay";
  }
  if (end > MAX_HEAD) return "relay";
  const text = head.latin1Slice!(0, end);
  const lineEnd = text.indexOf("\r\n");
  const m = LINE.exec(lineEnd < 0 ? text : text.slice(0, lineEnd));
  if (!m) return "relay";
  const fields = lineEnd < 0 ? "" : text.slice(lineEnd).toLowerCase();
  // A body, a continue handshake or an obsolete folded line: the HTTP server's to answer.
  if (/\r\n(content-length|transfer-encoding|expect)\s*:|\r\n[ \t]|[^\x20-\x7e\r\n\t]/.test(fields)) return "relay";
  const connection = /\r\nconnection\s*:([^\r]*)/.exec(fields)?.[1] ?? "";
  const close = m[3] === "0" ? !/keep-alive/.test(connection) : /close/.test(connection);
  const health = m[2] === "/health";
  const body = health ? HEALTH_BODY : ROOT_BODY;
  const lines = health
    ? ["HTTP/1.1 200 OK", "content-type: application/json", `content-length: ${body.length}`, "cache-control: no-store", `Date: ${httpDate()}`]
    : ["HTTP/1.1 200 OK", `Date: ${httpDate()}`];
  lines.push(close ? "Connection: close" : "Connection: keep-alive");
  if (!close) lines.push("Keep-Alive: timeout=5");
  if (!health) lines.push(`Content-Length: ${body.length}`);
  const reply = lines.join("\r\n") + "\r\n\r\n" + (m[1] === "HEAD" ? "" : body);
  return { reply: Buffer.from(reply, "latin1"), close, rest: head.subarray(end + 4) };
}

/** A line ended by LF alone: the HTTP server refuses it (400) at once; waiting here for a CRLF CRLF that never comes would hold it. */
function bareLf(head: Buffer, upTo: number): boolean {
  for (let i = head.indexOf(0x0a); i >= 0 && i < upTo; i = head.indexOf(0x0a, i + 1)) if (i === 0 || head[i - 1] !== 0x0d) return true;
  return false;
}

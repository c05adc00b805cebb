/**
 * google.rpc.Status with its details, encoded for the grpc-status-details-bin trailer that the
 * official clients parse (exactly-once ack failures, retry info). Field numbers are
 * google/rpc/status.proto's and error_details.proto's.
 */
import type { ErrorDetail } from "../core/errors.ts";
import { Writer, fieldSize, varintSize } from "./codec/wire.ts";

const TYPE_URL = "type.googleapis.com/google.rpc.";
const utf8 = (s: string) => Buffer.from(s, "utf8");

/** A message as a list of [field, encoded value] pieces; ints are wire type 0, the rest type 2. */
type Piece = [field: number, value: Buffer | number];

function encode(pieces: Piece[]): Buffer {
  let size = 0;
  for (const [, v] of pieces) size += typeof v === "number" ? 1 + varintSize(v) : fieldSize(v.length);
  const w = new Writer(Buffer.alloc(size));
  for (const [f, v] of pieces) {
    if (typeof v === "number") {
      w.tag(f, 0);
      w.varint(v);
    } else w.bytes(f, v);
  }
  return w.buf;
}

function detail(d: ErrorDetail): Buffer {
  switch (d.kind) {
    case "ErrorInfo": {
      const entries = d.metadata.map(([k, v]): Piece => [3, encode([[1, utf8(k)], [2, utf8(v)]])]);
      return encode([[1, utf8(d.reason)], [2, utf8(d.domain)], ...entries]);
    }
    case "BadRequest":
      return encode(d.fieldViolations.map((v): Piece => [1, encode([[1, utf8(v.field)], [2, utf8(v.description)]])]));
    case "RetryInfo": {
      const seconds = Math.floor(d.retryDelayMs / 1000);
      const nanos = (d.retryDelayMs % 1000) * 1e6;
      const duration: Piece[] = [];
      if (seconds) duration.push([1, seconds]);
      if (nanos) duration.push([2, nanos]);
      return encode([[1, encode(duration)]]);
    }
  }
}

/** The serialized google.rpc.Status for a code, a message and details. */
export function encodeStatus(code: number, message: string, details: readonly ErrorDetail[]): Buffer {
  const anys = details.map((d): Piece => [3, encode([[1, utf8(TYPE_URL + d.kind)], [2, detail(d)]])]);
  const pieces: Piece[] = [];
  if (code) pieces.push([1, code]);
  if (message) pieces.push([2, utf8(message)]);
  return encode([...pieces, ...anys]);
}

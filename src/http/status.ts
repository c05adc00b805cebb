/**
 * The one place a REST error is shaped: Google's body `{"error": {"code", "message", "status",
 * "details"}}` with the HTTP status of the gRPC code (google/rpc/code.proto's mapping) and the
 * details as proto3 JSON with their "@type". Anything that is not a PubSubError is a bug: INTERNAL.
 */
import { outOfMemory, PubSubError, type ErrorDetail } from "../core/errors.ts";
import { reportInternal } from "../runtime/internal-errors.ts";
import { formatDuration } from "../proto/well-known.ts";

/** HTTP status of each google.rpc.Code. */
const HTTP: Record<string, number> = {
  CANCELLED: 499,
  UNKNOWN: 500,
  INVALID_ARGUMENT: 400,
  DEADLINE_EXCEEDED: 504,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PERMISSION_DENIED: 403,
  UNAUTHENTICATED: 401,
  RESOURCE_EXHAUSTED: 429,
  FAILED_PRECONDITION: 400,
  ABORTED: 409,
  OUT_OF_RANGE: 400,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATA_LOSS: 500,
};

const TYPE_URL = "type.googleapis.com/google.rpc.";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

function detailJson(d: ErrorDetail): Obj {
  switch (d.kind) {
    case "ErrorInfo": {
      const metadata: Obj = Object.create(null);
      for (const [k, v] of d.metadata) metadata[k] = v;
      const out: Obj = { "@type": TYPE_URL + "ErrorInfo", reason: d.reason, domain: d.domain };
      if (d.metadata.length) out.metadata = metadata;
      return out;
    }
    case "BadRequest":
      return { "@type": TYPE_URL + "BadRequest", fieldViolations: d.fieldViolations.map((v) => ({ field: v.field, description: v.description })) };
    case "RetryInfo":
      return { "@type": TYPE_URL + "RetryInfo", retryDelay: formatDuration({ seconds: Math.floor(d.retryDelayMs / 1000), nanos: (d.retryDelayMs % 1000) * 1e6 }) };
  }
}

export interface ErrorResponse {
  httpStatus: number;
  body: { error: Obj };
}

/** The HTTP status and body for a thrown error. */
export function errorResponse(err: unknown): ErrorResponse {
  err = outOfMemory(err) ?? err;
  if (!(err instanceof PubSubError)) {
    reportInternal(err);
    err = new PubSubError("INTERNAL", `Internal error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 512));
  }
  const e = err as PubSubError;
  const httpStatus = HTTP[e.code] ?? 500;
  const error: Obj = { code: httpStatus, message: e.message, status: e.code };
  if (e.details.length) error.details = e.details.map(detailJson);
  return { httpStatus, body: { error } };
}

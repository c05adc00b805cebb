/**
 * The proto3 JSON forms of the well-known types the Pub/Sub protos use: Duration ("1.5s"),
 * Timestamp (RFC 3339), FieldMask ("a,b.c" in lowerCamelCase), Struct / Value / ListValue (plain
 * JSON). Inputs become proto-loader shapes ({seconds, nanos}, {paths}, {fields}); outputs the reverse.
 */
import { snakeCase } from "./types.ts";

/** Thrown for a value the mapping refuses; the caller adds where it was. */
export class JsonValueError extends Error {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const MAX_DURATION_SECONDS = 315_576_000_000;
/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the Timestamp range. */
const MIN_TS = -62_135_596_800;
const MAX_TS = 253_402_300_799;

export const WELL_KNOWN = new Set([
  "google.protobuf.Duration",
  "google.protobuf.Timestamp",
  "google.protobuf.FieldMask",
  "google.protobuf.Struct",
  "google.protobuf.Value",
  "google.protobuf.ListValue",
]);

/** 0, 3, 6 or 9 fractional digits, as the mapping prescribes. */
function fraction(nanos: number): string {
  if (!nanos) return "";
  const nine = String(nanos).padStart(9, "0");
  if (nanos % 1_000_000 === 0) return "." + nine.slice(0, 3);
  if (nanos % 1000 === 0) return "." + nine.slice(0, 6);
  return "." + nine;
}

const nanosOf = (digits: string | undefined) => (digits ? Number(digits.padEnd(9, "0")) : 0);

function parseDuration(s: unknown): Obj {
  const m = typeof s === "string" ? /^(-)?(\d{1,12})(?:\.(\d{1,9}))?s$/.exec(s) : null;
  if (!m) throw new JsonValueError('a duration must be a string of seconds ending in "s", such as "600s" or "1.5s"');
  const seconds = Number(m[2]);
  if (seconds > MAX_DURATION_SECONDS) throw new JsonValueError("the duration is out of range");
  const sign = m[1] ? -1 : 1;
  const nanos = nanosOf(m[3]);
  return { seconds: sign * seconds || 0, nanos: sign * nanos || 0 };
}

export function formatDuration(d: Obj): string {
  const seconds = Number(d.seconds ?? 0);
  const nanos = Number(d.nanos ?? 0);
  const negative = seconds < 0 || nanos < 0;
  return `${negative ? "-" : ""}${Math.abs(seconds)}${fraction(Math.abs(nanos))}s`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function parseTimestamp(s: unknown): Obj {
  const m = typeof s === "string" ? RFC3339.exec(s) : null;
  if (!m) throw new JsonValueError('a timestamp must be RFC 3339, such as "2024-01-02T03:04:05.678Z"');
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, se, 0);
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) {
    throw new JsonValueError("the timestamp is not a valid date and time");
  }
  const offset = m[8] ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 3600 + Number(m[11]) * 60);
  const seconds = Math.floor(date.getTime() / 1000) - offset;
  if (seconds < MIN_TS || seconds > MAX_TS) throw new JsonValueError("the timestamp is out of range");
  return { seconds, nanos: nanosOf(m[7]) };
}

export function formatTimestamp(seconds: number, nanos: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19) + fraction(nanos) + "Z";
}

const camelCase = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Paths arrive in lowerCamelCase (or snake_case); the table takes the proto's snake_case. */
function parseFieldMask(s: unknown): Obj {
  if (typeof s !== "string") throw new JsonValueError('a field mask must be a string of comma-separated paths, such as "labels,ackDeadlineSeconds"');
  const paths = s === "" ? [] : s.split(",").map((p) => p.trim().split(".").map(snakeCase).join("."));
  return { paths };
}

function parseValue(v: unknown, depth: number): Obj {
  if (depth > 64) throw new JsonValueError("the value is nested too deeply");
  if (v === null) return { nullValue: "NULL_VALUE" };
  switch (typeof v) {
    case "number":
      return { numberValue: v };
    case "string":
      return { stringValue: v };
    case "boolean":
      return { boolValue: v };
  }
  if (Array.isArray(v)) return { listValue: { values: v.map((x) => parseValue(x, depth + 1)) } };
  return { structValue: parseStruct(v, depth + 1) };
}

function parseStruct(v: unknown, depth = 0): Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new JsonValueError("a Struct must be a JSON object");
  const fields: Obj = Object.create(null);
  for (const k of Object.keys(v)) fields[k] = parseValue((v as Obj)[k], depth);
  return { fields };
}

function formatValue(v: Obj): unknown {
  if (v.structValue) return formatStruct(v.structValue);
  if (v.listValue) return (v.listValue.values ?? []).map(formatValue);
  if (v.numberValue !== undefined && v.numberValue !== null) return v.numberValue;
  if (v.stringValue !== undefined && v.stringValue !== null) return v.stringValue;
  if (v.boolValue !== undefined && v.boolValue !== null) return v.boolValue;
  return null;
}

function formatStruct(s: Obj): Obj {
  const out: Obj = Object.create(null);
  const fields = s.fields ?? {};
  for (const k of Object.keys(fields)) out[k] = formatValue(fields[k]);
  return out;
}

/** JSON → proto-loader shape for a well-known type. */
export function wellKnownFromJson(type: string, v: unknown): Obj {
  switch (type) {
    case "google.protobuf.Duration":
      return parseDuration(v);
    case "google.protobuf.Timestamp":
      return parseTimestamp(v);
    case "google.protobuf.FieldMask":
      return parseFieldMask(v);
    case "google.protobuf.Struct":
      return parseStruct(v);
    case "google.protobuf.Value":
      return parseValue(v, 0);
    default:
      if (!Array.isArray(v)) throw new JsonValueError("a ListValue must be a JSON array");
      return { values: v.map((x) => parseValue(x, 1)) };
  }
}

/** Proto-loader shape → JSON for a well-known type. */
export function wellKnownToJson(type: string, v: Obj): unknown {
  switch (type) {
    case "google.protobuf.Duration":
      return formatDuration(v);
    case "google.protobuf.Timestamp":
      return formatTimestamp(Number(v.seconds ?? 0), Number(v.nanos ?? 0));
    case "google.protobuf.FieldMask":
      return (v.paths ?? []).map((p: string) => p.split(".").map(camelCase).join(".")).join(",");
    case "google.protobuf.Struct":
      return formatStruct(v);
    case "google.protobuf.Value":
      return formatValue(v);
    default:
      return (v.values ?? []).map(formatValue);
  }
}

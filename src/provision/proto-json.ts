/**
 * Proto3 JSON (the REST spelling: lowerCamelCase, durations as "600s", enums by name, bytes in
 * base64) → the proto-loader object shape the RPC layer converts, guided by the vendored
 * descriptor so every field of Topic and Subscription is accepted and type-checked. snake_case
 * field names are accepted as aliases; map keys (labels, attributes) are kept as written.
 */
import protobuf from "protobufjs";
import { protoRoot } from "../proto/descriptor.ts";
import type { ProtoObject } from "../rpc/table.ts";

export function lookupType(name: string): protobuf.Type {
  return protoRoot().lookupType(name);
}

/** A value of the wrong shape; `path` says where (e.g. `deadLetterPolicy.maxDeliveryAttempts`). */
export class JsonShapeError extends Error {}

const fail = (path: string, why: string): never => {
  throw new JsonShapeError(`${path}: ${why}`);
};

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Converts `value` (parsed JSON or YAML) to a message of `type`, rejecting unknown fields. */
export function fromProtoJson(type: protobuf.Type, value: unknown, path: string): ProtoObject {
  if (!isObject(value)) return fail(path, `must be an object (a ${type.name})`);
  const out: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) {
    const name = camel(key);
    const field = Object.hasOwn(type.fields, name) ? type.fields[name] : undefined;
    const at = path ? `${path}.${key}` : key;
    if (!field) return fail(at, `unknown field of ${type.name}`);
    if (v === null || v === undefined) continue;
    field.resolve();
    if (field.map) {
      if (!isObject(v)) fail(at, "must be an object of key: value");
      out.push([name, Object.fromEntries(Object.entries(v).map(([k, x]) => [k, single(field, x, `${at}.${k}`)]))]);
    } else if (field.repeated) {
      if (!Array.isArray(v)) fail(at, "must be a list");
      out.push([name, (v as unknown[]).map((x, i) => single(field, x, `${at}[${i}]`))]);
    } else out.push([name, single(field, v, at)]);
  }
  return Object.fromEntries(out);
}

function single(field: protobuf.Field, v: unknown, path: string): unknown {
  const t = field.resolvedType;
  if (t instanceof protobuf.Type) return wellKnown(t, v, path) ?? fromProtoJson(t, v, path);
  if (t instanceof protobuf.Enum) {
    if (typeof v === "string" && Object.hasOwn(t.values, v)) return v;
    if (typeof v === "number" && Object.hasOwn(t.valuesById, v)) return t.valuesById[v];
    return fail(path, `must be one of ${Object.keys(t.values).join(", ")}`);
  }
  return scalar(field.type, v, path);
}

function scalar(type: string, v: unknown, path: string): unknown {
  switch (type) {
    case "string":
      return typeof v === "string" ? v : fail(path, "must be a string");
    case "bool":
      return typeof v === "boolean" ? v : fail(path, "must be true or false");
    case "bytes":
      if (typeof v !== "string" || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) fail(path, "must be base64");
      return Buffer.from(v as string, "base64");
    case "double":
    case "float": {
      const n = typeof v === "string" ? Number(v) : v;
      return typeof n === "number" && !Number.isNaN(n) ? n : fail(path, "must be a number");
    }
    default: {
      // int32, int64, uint*, sint*, fixed*: proto3 JSON allows a number or a decimal string.
      const n = typeof v === "string" && /^-?[0-9]+$/.test(v) ? Number(v) : v;
      if (typeof n !== "number" || !Number.isSafeInteger(n)) return fail(path, "must be an integer");
      if (type.startsWith("u") || type.startsWith("fixed")) return n >= 0 ? n : fail(path, "must not be negative");
      return n;
    }
  }
}

const DURATION = /^(-?)([0-9]{1,12})(?:\.([0-9]{1,9}))?s$/;

/** "600s", "1.5s" → {seconds, nanos}. */
export function parseDuration(v: unknown, path: string): { seconds: number; nanos: number } {
  const m = typeof v === "string" ? DURATION.exec(v) : null;
  if (!m) return fail(path, `must be a duration like "600s" or "0.5s" (got ${JSON.stringify(v)?.slice(0, 40)})`);
  const sign = m[1] ? -1 : 1;
  return { seconds: sign * Number(m[2]), nanos: sign * Number((m[3] ?? "").padEnd(9, "0")) };
}

function parseTimestamp(v: unknown, path: string): { seconds: number; nanos: number } {
  const m = typeof v === "string" ? /^(.+T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(v) : null;
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) return fail(path, 'must be an RFC 3339 time like "2024-01-01T00:00:00Z"');
  return { seconds: Math.floor(ms / 1000), nanos: Number((m[2] ?? "").padEnd(9, "0")) };
}

/** google.protobuf.Value from any JSON value. */
function jsonValue(v: unknown, path: string): ProtoObject {
  if (v === null) return { nullValue: "NULL_VALUE" };
  if (typeof v === "number") return { numberValue: v };
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map((x, i) => jsonValue(x, `${path}[${i}]`)) } };
  if (isObject(v)) return { structValue: jsonStruct(v, path) };
  return fail(path, "must be a JSON value");
}

const jsonStruct = (v: unknown, path: string): ProtoObject => {
  if (!isObject(v)) return fail(path, "must be an object");
  return { fields: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x, `${path}.${k}`)])) };
};

/** The well-known types proto3 JSON spells differently; undefined for any other message. */
function wellKnown(t: protobuf.Type, v: unknown, path: string): unknown {
  switch (t.fullName) {
    case ".google.protobuf.Duration":
      return parseDuration(v, path);
    case ".google.protobuf.Timestamp":
      return parseTimestamp(v, path);
    case ".google.protobuf.Struct":
      return jsonStruct(v, path);
    case ".google.protobuf.Value":
      return jsonValue(v, path);
    case ".google.protobuf.ListValue":
      if (!Array.isArray(v)) return fail(path, "must be a list");
      return { values: v.map((x, i) => jsonValue(x, `${path}[${i}]`)) };
    default:
      return undefined;
  }
}

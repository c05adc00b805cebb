/**
 * The proto3 JSON mapping, driven by protos/descriptor.json: JSON bodies become the proto-loader
 * shapes the RPC table takes (camelCase keys, Duration/Timestamp objects, enum names, Buffers), and
 * results become JSON (int64 as strings, base64 bytes, "600s", RFC 3339, enums by name or number).
 * Input accepts lowerCamelCase and the proto's snake_case names; an unknown field is refused naming
 * it. Maps are null-prototype objects, so a client's key (`__proto__`…) is only ever data.
 */
import { PubSubError } from "../core/errors.ts";
import { WELL_KNOWN, JsonValueError, wellKnownFromJson, wellKnownToJson } from "./well-known.ts";
import { enumType, messageType, type FieldInfo, type MessageType } from "./types.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const INVALID_PAYLOAD = "Invalid JSON payload received.";
/** Echoed client values are cut to this many characters: messages stay bounded. */
const ECHO = 64;

export const echo = (v: unknown): string => {
  // Lists and objects are named, never serialized: a client's nesting could be any depth or size.
  const s = typeof v === "string" ? JSON.stringify(v.slice(0, ECHO + 1)) : Array.isArray(v) ? "[…]" : v !== null && typeof v === "object" ? "{…}" : String(v);
  return s.length > ECHO ? s.slice(0, ECHO) + "…" : s;
};

/** INVALID_ARGUMENT with a BadRequest field violation, as the real REST front end answers. */
export function badField(field: string, description: string): PubSubError {
  return new PubSubError("INVALID_ARGUMENT", description, [
    { kind: "BadRequest", fieldViolations: [{ field: field.slice(0, 256), description }] },
  ]);
}

const unknownName = (name: string, at: string) =>
  badField(at, `${INVALID_PAYLOAD} Unknown name ${echo(name)}${at ? ` at '${at}'` : ""}: Cannot find field.`);

const join = (at: string, name: string) => (at ? `${at}.${name}` : name);

function invalidValue(f: FieldInfo, at: string, v: unknown, why?: string): PubSubError {
  const label = f.kind === "scalar" ? `TYPE_${f.type.toUpperCase()}` : `type.googleapis.com/${f.type}`;
  return badField(at, `Invalid value at '${at}' (${label}), ${echo(v)}${why ? `: ${why}` : ""}`);
}

const INT_RANGE: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  sint32: [-(2 ** 31), 2 ** 31 - 1],
  sfixed32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  fixed32: [0, 2 ** 32 - 1],
  int64: [-(2 ** 63), 2 ** 63],
  sint64: [-(2 ** 63), 2 ** 63],
  sfixed64: [-(2 ** 63), 2 ** 63],
  uint64: [0, 2 ** 64],
  fixed64: [0, 2 ** 64],
};

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Standard or URL-safe base64, padded or not. */
export function decodeBase64(s: string): Buffer | undefined {
  if (!BASE64.test(s)) return undefined;
  const body = s.replace(/=+$/, "");
  if (body.length % 4 === 1 || (s.length !== body.length && s.length % 4 !== 0)) return undefined;
  return Buffer.from(body, "base64");
}

/** A scalar from JSON (or a query-parameter string: `fromQuery`). */
function scalar(f: FieldInfo, v: unknown, at: string, fromQuery: boolean): unknown {
  const t = f.type;
  if (t === "string") {
    if (typeof v !== "string") throw invalidValue(f, at, v);
    return v;
  }
  if (t === "bool") {
    if (typeof v === "boolean") return v;
    if (fromQuery && (v === "true" || v === "false")) return v === "true";
    throw invalidValue(f, at, v);
  }
  if (t === "bytes") {
    const b = typeof v === "string" ? decodeBase64(v) : undefined;
    if (!b) throw invalidValue(f, at, v, "Base64 decoding failed");
    return b;
  }
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  if (t === "double" || t === "float") {
    if (typeof v === "string" && (v === "NaN" || v === "Infinity" || v === "-Infinity")) return Number(v);
    if (Number.isNaN(n)) throw invalidValue(f, at, v);
    return n;
  }
  const [min, max] = INT_RANGE[t];
  if (!Number.isInteger(n) || n < min || n > max) throw invalidValue(f, at, v);
  return n;
}

function enumValue(f: FieldInfo, v: unknown, at: string): unknown {
  const e = enumType(f.type);
  if (typeof v === "string") {
    if (e.byName.has(v)) return v;
    const n = /^-?\d+$/.test(v) ? Number(v) : NaN;
    if (Number.isInteger(n)) return e.byNumber.get(n) ?? n;
  }
  if (typeof v === "number" && Number.isInteger(v)) return e.byNumber.get(v) ?? v;
  throw invalidValue(f, at, v);
}

/** Whether a value is its type's default, which a field without presence does not carry. */
function isDefault(f: FieldInfo, v: unknown): boolean {
  if (f.kind === "enum") return v === 0 || enumType(f.type).byName.get(v as string) === 0;
  if (f.kind !== "scalar") return false;
  return v === 0 || v === "" || v === false || (v instanceof Uint8Array && v.length === 0);
}

/** One value of a field (an element, for repeated and map fields). */
function single(f: FieldInfo, v: unknown, at: string, fromQuery: boolean, depth: number): unknown {
  if (f.kind === "scalar") return scalar(f, v, at, fromQuery);
  if (f.kind === "enum") return enumValue(f, v, at);
  if (WELL_KNOWN.has(f.type)) {
    try {
      return wellKnownFromJson(f.type, v);
    } catch (e) {
      if (e instanceof JsonValueError) throw invalidValue(f, at, v, e.message);
      throw e;
    }
  }
  return messageFromJson(f.type, v, at, depth + 1);
}

/** Sets one field of `out` from its JSON value, checking oneofs and dropping defaults. */
export function setField(out: Obj, f: FieldInfo, v: unknown, at: string, fromQuery = false, depth = 0): void {
  if (v === null && f.type !== "google.protobuf.Value") return;
  if (f.mapKey) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalidValue(f, at, v, "a map must be a JSON object");
    const map: Obj = Object.create(null);
    let any = false;
    for (const k of Object.keys(v)) {
      map[k] = single(f, (v as Obj)[k], `${at}[${echo(k)}]`, fromQuery, depth);
      any = true;
    }
    if (any) out[f.name] = map;
    return;
  }
  if (f.repeated) {
    const list = Array.isArray(v) ? v : fromQuery ? [v] : undefined;
    if (!list) throw badField(at, `${INVALID_PAYLOAD} Unknown name ${echo(f.name)} at '${at}': Proto field is repeated; expected a list.`);
    const prev = (out[f.name] as unknown[] | undefined) ?? [];
    for (let i = 0; i < list.length; i++) prev.push(single(f, list[i], `${at}[${prev.length}]`, fromQuery, depth));
    if (prev.length) out[f.name] = prev;
    return;
  }
  const value = single(f, v, at, fromQuery, depth);
  if (!f.presence && isDefault(f, value)) return;
  if (f.oneof) {
    const set = out[f.oneof];
    if (set !== undefined && set !== f.name) {
      throw badField(at, `${INVALID_PAYLOAD} Oneof field '${f.oneof}' is already set. Cannot set '${f.protoName}'.`);
    }
    out[f.oneof] = f.name;
  }
  out[f.name] = value;
}

/** A JSON object as message `typeName` in proto-loader shape; `at` names where it sits. */
export function messageFromJson(typeName: string, json: unknown, at = "", depth = 0): Obj {
  if (depth > 32) throw badField(at, `${INVALID_PAYLOAD} The message is nested too deeply at '${at}'.`);
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw badField(at, `${INVALID_PAYLOAD} Expected an object${at ? ` at '${at}'` : ""}, got ${echo(json)}.`);
  }
  const t: MessageType = messageType(typeName);
  const out: Obj = {};
  for (const key of Object.keys(json)) {
    const f = t.byName.get(key);
    if (!f) throw unknownName(key, at);
    setField(out, f, (json as Obj)[key], join(at, f.protoName), false, depth);
  }
  return out;
}

export interface JsonOptions {
  /** `$alt=json;enum-encoding=int`: enums as numbers (the REST clients of the GAPIC generators ask for it). */
  numericEnums?: boolean;
}

function valueToJson(f: FieldInfo, v: unknown, o: JsonOptions): unknown {
  if (f.kind === "scalar") {
    switch (f.type) {
      case "bytes":
        // Bytes a stored config keeps as base64 (JSON records) are already their JSON form.
        if (typeof v === "string") return v;
        return Buffer.from((v as Uint8Array).buffer, (v as Uint8Array).byteOffset, (v as Uint8Array).length).toString("base64");
      case "int64": case "uint64": case "sint64": case "fixed64": case "sfixed64":
        return String(v);
      case "double": case "float":
        return Number.isFinite(v) ? v : String(v);
      default:
        return v;
    }
  }
  if (f.kind === "enum") {
    const e = enumType(f.type);
    if (o.numericEnums) return typeof v === "number" ? v : (e.byName.get(v as string) ?? 0);
    return typeof v === "number" ? (e.byNumber.get(v) ?? v) : v;
  }
  if (WELL_KNOWN.has(f.type)) return wellKnownToJson(f.type, v as Obj);
  return messageToJson(f.type, v as Obj, o);
}

/** A proto-loader shaped result as proto3 JSON; defaults of fields without presence are left out. */
export function messageToJson(typeName: string, obj: Obj, o: JsonOptions = {}): Obj {
  const out: Obj = {};
  for (const f of messageType(typeName).fields) {
    const v = obj[f.name];
    if (v === undefined || v === null) continue;
    if (f.mapKey) {
      const keys = Object.keys(v);
      if (!keys.length) continue;
      const map: Obj = Object.create(null);
      for (const k of keys) map[k] = valueToJson(f, v[k], o);
      out[f.name] = map;
    } else if (f.repeated) {
      if ((v as unknown[]).length) out[f.name] = (v as unknown[]).map((x) => valueToJson(f, x, o));
    } else if (f.presence || !isDefault(f, v)) out[f.name] = valueToJson(f, v, o);
  }
  return out;
}

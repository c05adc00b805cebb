/**
 * One message → one BigQuery row, exactly as the real service would insert it: the topic
 * schema's fields, the table schema applied to JSON data, or the bytes in `data`; the metadata
 * columns with write_metadata. A string result names why the message cannot be written.
 */
import { dict } from "../../safe-keys.ts";
import { metadataAttributes } from "../metadata-attributes.ts";
import type { StoredMessage } from "../../message.ts";
import { columnKey, type BqField, type BqTable } from "./table-schema.ts";
import type { SrcField, TopicRows } from "./topic-fields.ts";
import * as V from "./values.ts";

const { BAD } = V;
type Row = Record<string, unknown>;

export interface RowContext {
  subscription: string;
  table: BqTable;
  writeMetadata: boolean;
  dropUnknownFields: boolean;
  mode: "data" | "topic" | "table";
  /** The decoder of the revision a message was published under (topic mode). */
  topicRows?(message: StoredMessage): TopicRows | null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function text(data: Uint8Array): string | null {
  try {
    return utf8.decode(data);
  } catch {
    return null;
  }
}

/** A nested field's reason for not fitting, carried up through the cell converters. */
class Why {
  constructor(readonly why: string) {}
}

export function buildRow(msg: StoredMessage, ctx: RowContext): Row | string {
  const row: Row = dict<unknown>();
  if (ctx.writeMetadata) {
    const put = (name: string, v: unknown) => (row[ctx.table.byName.get(name)?.name ?? name] = v);
    put("subscription_name", ctx.subscription);
    put("message_id", msg.id);
    put("publish_time", V.timestampFromMillis(msg.publishTime));
    const attrs = metadataAttributes(msg);
    put("attributes", ctx.table.byName.get("attributes")?.type === "JSON" ? attrs : JSON.stringify(attrs));
  }
  if (ctx.mode === "topic") {
    const decoder = ctx.topicRows?.(msg);
    if (!decoder) return "the message names no schema revision of the topic";
    let value: Record<string, unknown>;
    try {
      value = decoder.decode(msg.data, msg.attributes.googclient_schemaencoding ?? "JSON");
    } catch {
      return "the message does not decode with its schema revision";
    }
    return fillFields(row, decoder.fields, value, ctx.table, ctx.dropUnknownFields, "");
  }
  if (ctx.mode === "table") {
    const s = text(msg.data);
    const json = s === null ? BAD : V.jsonFromString(s);
    if (json === BAD || typeof json !== "object" || json === null || Array.isArray(json)) return "the message data is not a JSON object";
    return fillJson(row, json as Row, ctx.table, ctx.dropUnknownFields, "");
  }
  const col = ctx.table.byName.get("data")!;
  let cell: unknown;
  if (col.type === "BYTES") cell = V.base64(msg.data);
  else {
    const s = text(msg.data);
    cell = s === null ? BAD : col.type === "JSON" ? V.jsonFromString(s) : s;
  }
  if (cell === BAD) return `the message data is not valid ${col.type === "JSON" ? "JSON" : "UTF-8"} for column data`;
  row[col.name] = cell;
  return row;
}

function fillFields(row: Row, fields: readonly SrcField[], value: Row, table: BqTable, drop: boolean, path: string): Row | string {
  for (const f of fields) {
    const col = table.byName.get(columnKey(f.name));
    // Schema field names are client data (`__proto__` is a valid Avro name): own properties only.
    const v = Object.hasOwn(value, f.name) ? value[f.name] : undefined;
    if (!col) {
      if (drop || v === null || v === undefined) continue;
      return `field ${path}${f.name} has no column in the table`;
    }
    const cell = f.repeated ? repeatedCell(f, col, v, drop, `${path}${f.name}`) : cellFor(f, col, v, drop, `${path}${f.name}`);
    if (cell instanceof Why) return cell.why;
    if (cell === BAD) return `field ${path}${f.name} does not fit column type ${col.type}`;
    if (cell === null && col.mode === "REQUIRED") return `REQUIRED column ${path}${col.name} has no value`;
    if (cell !== null) row[col.name] = cell;
  }
  return row;
}

function repeatedCell(f: SrcField, col: BqField, v: unknown, drop: boolean, path: string): unknown {
  if (f.kind === "map") {
    const entries = v instanceof Map ? [...v.entries()] : Object.entries((v ?? {}) as Row);
    return mapEntries(f, col, entries, drop, path);
  }
  if (!Array.isArray(v)) return v === null || v === undefined ? [] : BAD;
  const out: unknown[] = [];
  for (const item of v) {
    const cell = cellFor(f, col, item, drop, path);
    if (cell === BAD || cell instanceof Why) return cell;
    out.push(cell);
  }
  return out;
}

function mapEntries(f: SrcField, col: BqField, entries: [string, unknown][], drop: boolean, path: string): unknown {
  const out: unknown[] = [];
  for (const [key, value] of entries) {
    const r = fillFields(dict<unknown>(), f.fields!, { key, value }, col.fields!, drop, `${path}.`);
    if (typeof r === "string") return new Why(r);
    out.push(r);
  }
  return out;
}

function cellFor(f: SrcField, col: BqField, v: unknown, drop: boolean, path: string): unknown {
  if (v === null || v === undefined) return null;
  if (col.type === "RECORD") {
    if (typeof v !== "object") return BAD;
    const r = fillFields(dict<unknown>(), f.fields ?? [], v as Row, col.fields!, drop, `${path}.`);
    return typeof r === "string" ? new Why(r) : r;
  }
  const big = col.type === "BIGNUMERIC";
  const int = typeof v === "string" && /^-?\d+$/.test(v) && f.kind !== "string" ? BigInt(v) : typeof v === "number" && Number.isInteger(v) ? BigInt(v) : null;
  switch (col.type) {
    case "BOOLEAN":
      return typeof v === "boolean" ? v : BAD;
    case "STRING":
      return typeof v === "string" ? v : BAD;
    case "BYTES":
      return v instanceof Uint8Array ? V.base64(v) : BAD;
    case "FLOAT":
      return typeof v === "number" ? (Number.isFinite(v) ? v : String(v)) : BAD;
    case "INTEGER":
      if (f.kind === "enum") return typeof v === "number" ? v : f.symbols ? Math.max(-1, f.symbols.indexOf(String(v))) : BAD;
      return int === null ? BAD : V.integerCell(int);
    case "NUMERIC":
    case "BIGNUMERIC":
      if (v instanceof Uint8Array) return f.logical === "decimal" ? V.numericFromDecimalBytes(v, f.scale ?? 0, big) : BAD;
      if (typeof v === "string") return V.numericFromString(v, big);
      return typeof v === "number" ? V.numericFromNumber(v, big) : BAD;
    case "JSON":
      return typeof v === "string" ? V.jsonFromString(v) : BAD;
    case "TIMESTAMP":
      if (typeof v === "string" && f.kind === "string") return V.timestampFromString(v);
      return int === null ? BAD : V.timestampFromMicros(int);
    case "DATE":
      if (typeof v === "string" && f.kind === "string") return V.dateFromString(v);
      return int === null ? BAD : V.dateFromDays(Number(int));
    case "TIME":
      if (typeof v === "string" && f.kind === "string") return V.timeFromString(v);
      return int === null ? BAD : V.timeFromMicros(int);
    case "DATETIME":
      if (typeof v === "string" && f.kind === "string") return V.datetimeFromString(v);
      return int === null ? BAD : V.datetimeFromPacked(int);
    case "INTERVAL":
      return v instanceof Uint8Array && v.length === 12 ? interval(v) : BAD;
    default:
      return BAD;
  }
}

/** Avro `duration` (months, days, millis as little-endian uint32s) in BigQuery's `Y-M D H:M:S.F`. */
function interval(b: Uint8Array): string {
  const dv = new DataView(b.buffer, b.byteOffset, 12);
  const [months, days, ms] = [dv.getUint32(0, true), dv.getUint32(4, true), dv.getUint32(8, true)];
  const s = Math.floor(ms / 1000);
  return `${Math.floor(months / 12)}-${months % 12} ${days} ${Math.floor(s / 3600)}:${Math.floor(s / 60) % 60}:${s % 60}.${String(ms % 1000).padStart(3, "0")}`;
}

// ---- use_table_schema: JSON values onto the table's columns ----

function fillJson(row: Row, value: Row, table: BqTable, drop: boolean, path: string): Row | string {
  const seen = new Set<string>();
  for (const key of Object.keys(value)) {
    const col = table.byName.get(columnKey(key));
    if (!col) {
      if (drop) continue;
      return `field ${path}${key} has no column in the table`;
    }
    seen.add(columnKey(key));
    const v = value[key];
    let cell: unknown;
    if (col.mode === "REPEATED") {
      if (v !== null && !Array.isArray(v)) return `field ${path}${key} must be an array for REPEATED column ${col.name}`;
      const cells = (v ?? []).map((item: unknown) => jsonCell(col, item, drop, `${path}${key}`));
      cell = cells.find((c: unknown) => c === BAD || c instanceof Why) ?? cells;
    } else cell = jsonCell(col, v, drop, `${path}${key}`);
    if (cell instanceof Why) return cell.why;
    if (cell === BAD) return `field ${path}${key} does not fit column type ${col.type}`;
    if (cell === null && col.mode === "REQUIRED") return `REQUIRED column ${path}${col.name} has no value`;
    if (cell !== null) row[col.name] = cell;
  }
  const missing = table.columns.find((c) => c.mode === "REQUIRED" && !seen.has(columnKey(c.name)));
  return missing ? `REQUIRED column ${path}${missing.name} has no value` : row;
}

/** A JSON value as a cell; a nested record that does not fit comes back as a Why. */
function jsonCell(col: BqField, v: unknown, drop: boolean, path: string): unknown {
  if (v === null || v === undefined) return null;
  const big = col.type === "BIGNUMERIC";
  switch (col.type) {
    case "RECORD": {
      if (typeof v !== "object" || Array.isArray(v)) return BAD;
      const r = fillJson(dict<unknown>(), v as Row, col.fields!, drop, `${path}.`);
      return typeof r === "string" ? new Why(r) : r;
    }
    case "STRING":
    case "GEOGRAPHY":
      return typeof v === "string" ? v : BAD;
    case "BOOLEAN":
      return typeof v === "boolean" ? v : BAD;
    case "INTEGER":
      if (typeof v === "string" && /^-?\d{1,19}$/.test(v)) return V.integerCell(BigInt(v));
      return typeof v === "number" && Number.isInteger(v) ? V.integerCell(v) : BAD;
    case "FLOAT":
      if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
      return typeof v === "number" ? v : BAD;
    case "NUMERIC":
    case "BIGNUMERIC":
      return typeof v === "string" ? V.numericFromString(v, big) : typeof v === "number" ? V.numericFromNumber(v, big) : BAD;
    case "BYTES":
      return typeof v === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0 ? v : BAD;
    case "JSON":
      return v;
    case "TIMESTAMP":
      if (typeof v === "number" && Number.isInteger(v)) return V.timestampFromMicros(BigInt(v));
      return typeof v === "string" ? V.timestampFromString(v) : BAD;
    case "DATE":
      if (typeof v === "number") return V.dateFromDays(v);
      return typeof v === "string" ? V.dateFromString(v) : BAD;
    case "TIME":
      return typeof v === "string" ? V.timeFromString(v) : BAD;
    case "DATETIME":
      return typeof v === "string" ? V.datetimeFromString(v) : BAD;
    default:
      return typeof v === "string" ? v : BAD;
  }
}

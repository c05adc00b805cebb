/**
 * BigtableConfig.column_family_mapping: a JSON message written field by field. A top-level field
 * whose name is a column family of the table (other than `data`) goes to that family — an object
 * as its next-level fields (qualifier = nested name), anything else under the empty qualifier;
 * every other field goes to `data` with its name as the qualifier. Strings are written as their
 * UTF-8 text, other values as their JSON text. The row key joins the delimited_key fields' values
 * with the delimiter; without a key definition it is the default `sub#hash#id`.
 */
import type { ColumnFamilyMappingView } from "../../core/kinds/bigtable/config.ts";
import { fromBase64 } from "../../core/base64.ts";
import type { RowMutation, SetCell } from "./client.ts";

const enc = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true });
const EMPTY = new Uint8Array(0);

const valueBytes = (v: unknown): Uint8Array => enc.encode(typeof v === "string" ? v : JSON.stringify(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The message's JSON object, or why it has none (the message then stays in the backlog). */
export function jsonObject(data: Uint8Array): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(data));
  } catch {
    return "the message data are not JSON";
  }
  return isObject(value) ? value : "the message data are not a JSON object";
}

/** The delimited key, or why the message has none. */
export function delimitedKey(json: Record<string, unknown>, keyFields: readonly string[], delimiter: Uint8Array): Uint8Array | string {
  const parts: Uint8Array[] = [];
  for (const f of keyFields) {
    if (!Object.hasOwn(json, f) || json[f] === null) return `the key field "${f.slice(0, 100)}" is missing`;
    parts.push(valueBytes(json[f]));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0) + delimiter.length * (parts.length - 1));
  let at = 0;
  parts.forEach((p, i) => {
    if (i) {
      out.set(delimiter, at);
      at += delimiter.length;
    }
    out.set(p, at);
    at += p.length;
  });
  return out;
}

/** The cells of a JSON message under the mapping's column rules. */
export function mappedCells(json: Record<string, unknown>, families: ReadonlySet<string>, timestampMicros: string): SetCell[] {
  const cells: SetCell[] = [];
  for (const [field, v] of Object.entries(json)) {
    if (v === null) continue;
    if (field !== "data" && families.has(field)) {
      if (isObject(v)) {
        for (const [nested, nv] of Object.entries(v)) {
          if (nv !== null) cells.push({ familyName: field, columnQualifier: enc.encode(nested), timestampMicros, value: valueBytes(nv) });
        }
      } else cells.push({ familyName: field, columnQualifier: EMPTY, timestampMicros, value: valueBytes(v) });
    } else cells.push({ familyName: "data", columnQualifier: enc.encode(field), timestampMicros, value: valueBytes(v) });
  }
  return cells;
}

/** One message under the mapping: its key and cells, or why it cannot be written (it stays in the backlog). */
export function mappedRow(data: Uint8Array, mapping: ColumnFamilyMappingView, families: ReadonlySet<string>, defaultKey: Uint8Array, ts: string): RowMutation | string {
  const json = jsonObject(data);
  if (typeof json === "string") return json;
  const key = mapping.delimitedKey;
  const rowKey = key?.keyFields ? delimitedKey(json, key.keyFields, fromBase64(String(key.delimiter ?? ""))) : defaultKey;
  if (typeof rowKey === "string") return rowKey;
  return { rowKey, cells: mappedCells(json, families, ts) };
}

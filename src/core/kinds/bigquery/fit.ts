/**
 * Which table fits which subscription, by the real service's schema-compatibility rules:
 * - no schema: a `data` column of BYTES, STRING or JSON;
 * - write_metadata: `subscription_name` STRING, `message_id` STRING, `publish_time` TIMESTAMP and
 *   `attributes` STRING or JSON;
 * - use_topic_schema: every topic field has a column of the same name and a compatible type
 *   (unless drop_unknown_fields), optional fields land in columns that are not REQUIRED, repeated
 *   ones in REPEATED columns;
 * - every column nothing writes is not REQUIRED.
 * A reason string means SCHEMA_MISMATCH; null means the table fits.
 */
import { columnKey, type BqField, type BqTable, type BqType } from "./table-schema.ts";
import type { SrcField } from "./topic-fields.ts";

const STRINGISH: BqType[] = ["STRING", "JSON", "TIMESTAMP", "DATETIME", "DATE", "TIME", "NUMERIC", "BIGNUMERIC"];
const INTISH: BqType[] = ["INTEGER", "NUMERIC", "BIGNUMERIC"];
const FLOATISH: BqType[] = ["FLOAT", "NUMERIC", "BIGNUMERIC"];
const BYTESISH: BqType[] = ["BYTES", "NUMERIC", "BIGNUMERIC"];

const BY_KIND: Readonly<Record<string, readonly BqType[]>> = Object.freeze(Object.assign(Object.create(null), {
  boolean: ["BOOLEAN"], bool: ["BOOLEAN"],
  int: INTISH, long: INTISH,
  float: FLOATISH, double: FLOATISH,
  bytes: BYTESISH, fixed: BYTESISH,
  string: STRINGISH,
  enum: ["INTEGER"],
  record: ["RECORD"], message: ["RECORD"], map: ["RECORD"],
  int32: [...INTISH, "DATE"], sint32: [...INTISH, "DATE"], sfixed32: [...INTISH, "DATE"],
  uint32: [...INTISH, "DATE"], fixed32: [...INTISH, "DATE"],
  int64: [...INTISH, "DATE", "DATETIME", "TIMESTAMP"], sint64: [...INTISH, "DATE", "DATETIME", "TIMESTAMP"],
  sfixed64: [...INTISH, "DATE", "DATETIME", "TIMESTAMP"],
  uint64: ["NUMERIC", "BIGNUMERIC"], fixed64: ["NUMERIC", "BIGNUMERIC"],
}));

const BY_LOGICAL: Readonly<Record<string, readonly BqType[]>> = Object.freeze(Object.assign(Object.create(null), {
  "timestamp-micros": ["TIMESTAMP"], date: ["DATE"], "time-micros": ["TIME"], duration: ["INTERVAL"],
  decimal: ["NUMERIC", "BIGNUMERIC"],
}));

export function compatibleTypes(src: SrcField): readonly BqType[] {
  return (src.logical && BY_LOGICAL[src.logical]) || BY_KIND[src.kind] || [];
}

export const METADATA_COLUMNS: ReadonlyArray<[string, readonly BqType[]]> = [
  ["subscription_name", ["STRING"]],
  ["message_id", ["STRING"]],
  ["publish_time", ["TIMESTAMP"]],
  ["attributes", ["STRING", "JSON"]],
];
const DATA_TYPES: readonly BqType[] = ["BYTES", "STRING", "JSON"];

function checkColumn(table: BqTable, name: string, types: readonly BqType[]): string | null {
  const col = table.byName.get(columnKey(name));
  if (!col) return `the table has no ${name} column`;
  if (!types.includes(col.type)) return `column ${name} is ${col.type}, but it must be ${types.join(" or ")}`;
  if (col.mode === "REPEATED") return `column ${name} must not be REPEATED`;
  return null;
}

function fieldsFit(src: readonly SrcField[], table: BqTable, dropUnknown: boolean, path: string): string | null {
  const written = new Set<string>();
  for (const f of src) {
    const where = path + f.name;
    const col = table.byName.get(columnKey(f.name));
    if (!col) {
      if (dropUnknown) continue;
      return `the topic schema field ${where} has no column in the table`;
    }
    if (f.unmappable) return `the topic schema field ${where} cannot be written to BigQuery: ${f.unmappable}`;
    written.add(columnKey(f.name));
    const types = compatibleTypes(f);
    if (!types.includes(col.type)) {
      return `the topic schema field ${where} (${f.logical ?? f.kind}) is not compatible with column type ${col.type}`;
    }
    if (f.repeated !== (col.mode === "REPEATED")) {
      return `the topic schema field ${where} is ${f.repeated ? "" : "not "}repeated, but its column is ${col.mode}`;
    }
    if (f.optional && col.mode === "REQUIRED") return `the topic schema field ${where} is optional, but its column is REQUIRED`;
    if (col.type === "RECORD") {
      const inner = fieldsFit(f.fields ?? [], col.fields!, dropUnknown, `${where}.`);
      if (inner) return inner;
    }
  }
  return requiredLeft(table, written, path);
}

function requiredLeft(table: BqTable, written: ReadonlySet<string>, path: string): string | null {
  const missing = table.columns.find((c: BqField) => c.mode === "REQUIRED" && !written.has(columnKey(c.name)));
  return missing ? `column ${path}${missing.name} is REQUIRED, but nothing is written to it` : null;
}

export interface FitInput {
  table: BqTable;
  writeMetadata: boolean;
  dropUnknownFields: boolean;
  /** The topic's fields when use_topic_schema is set and the topic has a schema. */
  topicFields?: readonly SrcField[];
  useTableSchema: boolean;
}

export function checkFit(o: FitInput): string | null {
  const written = new Set<string>();
  if (o.writeMetadata) {
    for (const [name, types] of METADATA_COLUMNS) {
      const why = checkColumn(o.table, name, types);
      if (why) return why;
      written.add(name);
    }
  }
  if (o.topicFields) {
    const meta = new Set(written);
    const rest: BqTable = { columns: o.table.columns.filter((c) => !meta.has(columnKey(c.name))), byName: new Map() };
    for (const c of rest.columns) rest.byName.set(columnKey(c.name), c);
    return fieldsFit(o.topicFields, rest, o.dropUnknownFields, "");
  }
  // With the table's schema, each message's JSON decides what is written (checked per message).
  if (o.useTableSchema) return null;
  const why = checkColumn(o.table, "data", DATA_TYPES);
  if (why) return why;
  written.add("data");
  return requiredLeft(o.table, written, "");
}

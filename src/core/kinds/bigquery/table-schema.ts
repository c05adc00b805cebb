/**
 * A BigQuery table schema in the JSON form `bq show --schema` prints: an array of
 * `{name, type, mode, fields}` (or `{fields: [...]}`), type aliases folded to one name each.
 * Column names compare case-insensitively, as BigQuery's do; lookups go through a Map.
 */
export type BqType =
  | "STRING" | "BYTES" | "INTEGER" | "FLOAT" | "NUMERIC" | "BIGNUMERIC" | "BOOLEAN" | "TIMESTAMP"
  | "DATE" | "TIME" | "DATETIME" | "GEOGRAPHY" | "JSON" | "RECORD" | "INTERVAL" | "RANGE";

export type BqMode = "NULLABLE" | "REQUIRED" | "REPEATED";

export interface BqField {
  name: string;
  type: BqType;
  mode: BqMode;
  fields?: BqTable;
}

export interface BqTable {
  columns: BqField[];
  byName: Map<string, BqField>;
}

const ALIASES: ReadonlyMap<string, BqType> = new Map([
  ["STRING", "STRING"], ["BYTES", "BYTES"], ["INTEGER", "INTEGER"], ["INT64", "INTEGER"], ["INT", "INTEGER"],
  ["SMALLINT", "INTEGER"], ["BIGINT", "INTEGER"], ["TINYINT", "INTEGER"], ["BYTEINT", "INTEGER"],
  ["FLOAT", "FLOAT"], ["FLOAT64", "FLOAT"], ["NUMERIC", "NUMERIC"], ["DECIMAL", "NUMERIC"],
  ["BIGNUMERIC", "BIGNUMERIC"], ["BIGDECIMAL", "BIGNUMERIC"], ["BOOLEAN", "BOOLEAN"], ["BOOL", "BOOLEAN"],
  ["TIMESTAMP", "TIMESTAMP"], ["DATE", "DATE"], ["TIME", "TIME"], ["DATETIME", "DATETIME"],
  ["GEOGRAPHY", "GEOGRAPHY"], ["JSON", "JSON"], ["RECORD", "RECORD"], ["STRUCT", "RECORD"],
  ["INTERVAL", "INTERVAL"], ["RANGE", "RANGE"],
] as [string, BqType][]);

const MAX_DEPTH = 15; // BigQuery's nesting limit for RECORD columns
const NAME = /^[\p{L}\p{N}_][\p{L}\p{M}\p{N}\p{Pc}\p{Pd}&%=+:'<>#| ]{0,299}$/u;

export const columnKey = (name: string) => name.toLowerCase();

/** The table schema, or a bounded reason it is not one. */
export function parseTableSchema(json: unknown, depth = 0): BqTable | string {
  const list = Array.isArray(json) ? json : (json as { fields?: unknown })?.fields;
  if (!Array.isArray(list)) return "the schema must be a JSON array of fields";
  if (depth > MAX_DEPTH) return "RECORD columns are nested too deeply";
  const columns: BqField[] = [];
  const byName = new Map<string, BqField>();
  for (const raw of list.slice(0, 10_001)) {
    const f = raw as Record<string, unknown>;
    if (typeof f !== "object" || f === null || typeof f.name !== "string" || !NAME.test(f.name)) return "a field has no valid name";
    const type = ALIASES.get(String(f.type ?? "").toUpperCase());
    if (!type) return `field ${f.name.slice(0, 64)} has an unknown type`;
    const mode = String(f.mode ?? "NULLABLE").toUpperCase();
    if (mode !== "NULLABLE" && mode !== "REQUIRED" && mode !== "REPEATED") return `field ${f.name.slice(0, 64)} has an unknown mode`;
    const field: BqField = { name: f.name, type, mode };
    if (type === "RECORD") {
      const sub = parseTableSchema(f.fields, depth + 1);
      if (typeof sub === "string") return sub;
      field.fields = sub;
    }
    if (byName.has(columnKey(f.name))) return `field ${f.name.slice(0, 64)} appears twice`;
    byName.set(columnKey(f.name), field);
    columns.push(field);
  }
  if (list.length > 10_000) return "a table has at most 10000 columns";
  return { columns, byName };
}

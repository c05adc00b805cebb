/** bigtable_config as the real service checks it on create and update. */
import { bounded, invalid } from "../../errors.ts";
import { checkServiceAccount } from "../bigquery/config.ts";
import { fromBase64, toBase64 } from "../../base64.ts";

/**
 * BigtableConfig.column_family_mapping (clients of 2026-11): JSON messages written field by field,
 * the row key from key fields joined by a delimiter (kept as base64: configs are JSON records) or
 * from the table's structured row key.
 */
export interface ColumnFamilyMappingView {
  rowKeySchema?: Record<string, never> | null;
  delimitedKey?: { keyFields?: string[]; delimiter?: Uint8Array | string } | null;
}

export interface BigtableConfigView {
  table?: string;
  appProfileId?: string;
  serviceAccountEmail?: string;
  writeMetadata?: boolean;
  columnFamilyMapping?: ColumnFamilyMappingView | null;
  state?: string;
}

const MAPPING = "bigtable_config.column_family_mapping";
/** Ours: a key field names a top-level JSON field; a client's list is held for the subscription's life. */
const MAX_KEY_FIELDS = 100;
const MAX_KEY_FIELD_CHARS = 1024;

/** The mapping as stored: its delimiter as base64; refused naming the field when it breaks the rules. */
function normalizeMapping(m: ColumnFamilyMappingView): ColumnFamilyMappingView {
  if (m.rowKeySchema && m.delimitedKey) throw invalid(`${MAPPING}: only one of row_key_schema and delimited_key may be set.`);
  if (m.rowKeySchema) return { rowKeySchema: {} };
  if (!m.delimitedKey) return {};
  const { keyFields = [], delimiter } = m.delimitedKey;
  if (!Array.isArray(keyFields) || keyFields.length === 0) throw invalid(`${MAPPING}.delimited_key.key_fields is required.`);
  if (keyFields.length > MAX_KEY_FIELDS) {
    throw invalid(`${MAPPING}.delimited_key.key_fields has ${keyFields.length} fields, but the maximum allowed is ${MAX_KEY_FIELDS}.`);
  }
  keyFields.forEach((f, i) => {
    if (typeof f !== "string" || f === "") throw invalid(`${MAPPING}.delimited_key.key_fields[${i}] must not be empty.`);
    if (f.length > MAX_KEY_FIELD_CHARS) throw invalid(`${MAPPING}.delimited_key.key_fields[${i}] is longer than ${MAX_KEY_FIELD_CHARS} characters.`);
  });
  const bytes = typeof delimiter === "string" ? fromBase64(delimiter) : (delimiter ?? new Uint8Array(0));
  if (bytes.length === 0 && keyFields.length > 1) {
    throw invalid(`${MAPPING}.delimited_key.delimiter is required when more than one key field is used.`);
  }
  if (bytes.length > 50) throw invalid(`${MAPPING}.delimited_key.delimiter is ${bytes.length} bytes; it must have at least 1 and at most 50.`);
  return { delimitedKey: { keyFields: [...keyFields], delimiter: toBase64(bytes) } };
}

// Bigtable's own id rules: instance ids 6-33 characters, table and app profile ids up to 50.
const TABLE = /^projects\/((?:[a-z0-9.-]{1,63}:)?[a-z][a-z0-9-]{0,61}[a-z0-9])\/instances\/([a-z][a-z0-9-]{4,31}[a-z0-9])\/tables\/([_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49})$/;
const APP_PROFILE = /^[_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49}$/;

export const bigtableTableOf = (config: { bigtableConfig?: unknown }): string =>
  (config.bigtableConfig as BigtableConfigView | undefined)?.table ?? "";

/** `projects/{p}/instances/{i}/tables/{t}` split, or null. */
export function parseBigtableTable(name: string): { project: string; instance: string; table: string } | null {
  const m = typeof name === "string" ? TABLE.exec(name) : null;
  return m ? { project: m[1], instance: m[2], table: m[3] } : null;
}

export function normalizeBigtableConfig(next: unknown, state: string): BigtableConfigView | undefined {
  const c = next as BigtableConfigView | undefined;
  if (!c) return undefined;
  if (!(c.table || c.appProfileId || c.serviceAccountEmail || c.writeMetadata || c.columnFamilyMapping)) return undefined;
  if (!c.table) throw invalid("bigtable_config.table is required for a Bigtable subscription.");
  if (!parseBigtableTable(c.table)) {
    throw invalid(`Invalid bigtable_config.table: "${bounded(c.table)}". It must be of the form projects/{project}/instances/{instance}/tables/{table}.`);
  }
  if (c.appProfileId && !APP_PROFILE.test(c.appProfileId)) {
    throw invalid(`Invalid bigtable_config.app_profile_id: "${bounded(c.appProfileId)}". It must be 1-50 letters, digits, _, - or . and not start with - or .`);
  }
  checkServiceAccount(c.serviceAccountEmail, "bigtable_config.service_account_email");
  return {
    table: c.table,
    appProfileId: c.appProfileId ?? "",
    serviceAccountEmail: c.serviceAccountEmail ?? "",
    writeMetadata: !!c.writeMetadata,
    ...(c.columnFamilyMapping ? { columnFamilyMapping: normalizeMapping(c.columnFamilyMapping) } : {}),
    state,
  };
}

/**
 * bigquery_config as the real service checks it on create and update. An empty config (no table,
 * nothing set) is no BigQuery delivery at all, as an empty push_config is a pull subscription.
 */
import { bounded, invalid } from "../../errors.ts";

export interface BigQueryConfigView {
  table?: string;
  useTopicSchema?: boolean;
  writeMetadata?: boolean;
  dropUnknownFields?: boolean;
  state?: string;
  useTableSchema?: boolean;
  serviceAccountEmail?: string;
}

export interface TableRef {
  project: string;
  dataset: string;
  table: string;
}

// Project ids (optionally domain-scoped, `example.com:proj`; short ids such as the emulator's
// usual `test` are taken, as every project is served), dataset ids and table ids as BigQuery
// names them; none can hold `/`, `\` or `..`, so a table maps onto a path safely.
export const PROJECT_ID = /^(?:[a-z0-9.-]{1,63}:)?[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const PROJECT = PROJECT_ID;
const DATASET = /^[A-Za-z0-9_]{1,1024}$/;
const TABLE = /^[\p{L}\p{M}\p{N}\p{Pc}\p{Pd} ]{1,1024}$/u;

/** `{project}.{dataset}.{table}` (or the legacy `{project}:{dataset}.{table}`), or null. */
export function parseTable(name: string): TableRef | null {
  if (typeof name !== "string" || name.length > 2200) return null;
  const lastDot = name.lastIndexOf(".");
  if (lastDot < 0) return null;
  const table = name.slice(lastDot + 1);
  const head = name.slice(0, lastDot);
  const sep = Math.max(head.lastIndexOf("."), head.lastIndexOf(":"));
  if (sep < 0) return null;
  const project = head.slice(0, sep);
  const dataset = head.slice(sep + 1);
  if (!PROJECT.test(project) || !DATASET.test(dataset) || !TABLE.test(table) || table.trim() !== table) return null;
  return { project, dataset, table };
}

export const bigQueryTableOf = (config: { bigqueryConfig?: unknown }): string =>
  (config.bigqueryConfig as BigQueryConfigView | undefined)?.table ?? "";

export function checkServiceAccount(email: string | undefined, field: string): void {
  if (!email) return;
  if (email.length > 254 || !/^[a-z0-9._%+-]{1,64}@[a-z0-9.-]+\.[a-z]{2,}$/i.test(email)) {
    throw invalid(`Invalid ${field}: "${bounded(email)}". It must be a service account email.`);
  }
}

/** Throws INVALID_ARGUMENT naming the field; returns the config with its state set to `state`. */
export function normalizeBigQueryConfig(next: unknown, state: string): BigQueryConfigView | undefined {
  const c = next as BigQueryConfigView | undefined;
  if (!c) return undefined;
  const anySet = c.table || c.useTopicSchema || c.useTableSchema || c.writeMetadata || c.dropUnknownFields || c.serviceAccountEmail;
  if (!anySet) return undefined;
  if (!c.table) throw invalid("bigquery_config.table is required for a BigQuery subscription.");
  if (!parseTable(c.table)) {
    throw invalid(`Invalid bigquery_config.table: "${bounded(c.table)}". It must be of the form {projectId}.{datasetId}.{tableId}.`);
  }
  if (c.useTopicSchema && c.useTableSchema) {
    throw invalid("Invalid bigquery_config: use_topic_schema and use_table_schema cannot be enabled at the same time.");
  }
  if (c.dropUnknownFields && !c.useTopicSchema && !c.useTableSchema) {
    throw invalid("Invalid bigquery_config.drop_unknown_fields: it can only be set with use_topic_schema or use_table_schema.");
  }
  checkServiceAccount(c.serviceAccountEmail, "bigquery_config.service_account_email");
  return {
    table: c.table,
    useTopicSchema: !!c.useTopicSchema,
    writeMetadata: !!c.writeMetadata,
    dropUnknownFields: !!c.dropUnknownFields,
    state,
    useTableSchema: !!c.useTableSchema,
    serviceAccountEmail: c.serviceAccountEmail ?? "",
  };
}

/**
 * The export kinds' configs on a subscription create or update, validated in place (registered in
 * delivery/kinds.ts). The output-only state is kept while the destination stays the same (the sink
 * revises it), and starts ACTIVE for a new one.
 */
import type { SubscriptionResource } from "../resources.ts";
import { normalizeBigQueryConfig, type BigQueryConfigView } from "./bigquery/config.ts";
import { normalizeBigtableConfig, type BigtableConfigView } from "./bigtable/config.ts";
import { normalizeCloudStorageConfig, storageBucketOf } from "./storage/config.ts";

type Field = "bigqueryConfig" | "bigtableConfig";

function stateKept(field: Field, next: SubscriptionResource, prev?: SubscriptionResource): string {
  const before = prev?.[field] as { table?: string; state?: string } | undefined;
  const after = next[field] as { table?: string } | undefined;
  return before?.table && before.table === after?.table ? (before.state ?? "ACTIVE") : "ACTIVE";
}

function normalizeField<V>(field: Field, normalize: (config: unknown, state: string) => V | undefined) {
  return (next: SubscriptionResource, prev?: SubscriptionResource): void => {
    const v = normalize(next[field], stateKept(field, next, prev));
    if (v) next[field] = v as SubscriptionResource[Field];
    else delete next[field];
  };
}

export const normalizeBigQuery = normalizeField<BigQueryConfigView>("bigqueryConfig", normalizeBigQueryConfig);
export const normalizeBigtable = normalizeField<BigtableConfigView>("bigtableConfig", normalizeBigtableConfig);

/** Cloud Storage: its state is kept while the bucket stays the same; update masks reach sub-fields through `prev`. */
export function normalizeCloudStorage(next: SubscriptionResource, prev?: SubscriptionResource): void {
  const bucket = prev && storageBucketOf(prev);
  const state = bucket && bucket === storageBucketOf(next) ? ((prev!.cloudStorageConfig as { state?: string }).state ?? "ACTIVE") : "ACTIVE";
  const v = normalizeCloudStorageConfig(next.cloudStorageConfig, state, prev?.cloudStorageConfig);
  if (v) next.cloudStorageConfig = v as SubscriptionResource["cloudStorageConfig"];
  else delete next.cloudStorageConfig;
}

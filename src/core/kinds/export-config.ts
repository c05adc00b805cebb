/**
 * The export kinds' configs on a subscription create or update: each validated, and at most one
 * delivery kind set (push, BigQuery, Cloud Storage, Bigtable are mutually exclusive).
 */
import { invalid } from "../errors.ts";
import { pushEndpointOf } from "../push/push-config.ts";
import type { SubscriptionResource } from "../resources.ts";
import { normalizeBigQueryConfig, type BigQueryConfigView } from "./bigquery/config.ts";
import { normalizeBigtableConfig, type BigtableConfigView } from "./bigtable/config.ts";
import { normalizeCloudStorageConfig, storageBucketOf } from "./storage/config.ts";

export function checkOneDeliveryKind(config: SubscriptionResource): void {
  const kinds = [
    pushEndpointOf(config) !== "",
    !!(config.bigqueryConfig as BigQueryConfigView | undefined)?.table,
    !!(config.cloudStorageConfig as { bucket?: string } | undefined)?.bucket,
    !!(config.bigtableConfig as BigtableConfigView | undefined)?.table,
  ].filter(Boolean).length;
  if (kinds > 1) {
    throw invalid("Invalid subscription: at most one of push_config, bigquery_config, cloud_storage_config and bigtable_config may be set.");
  }
}

/**
 * Validates the BigQuery, Bigtable and Cloud Storage configs in place. The output-only state is kept while the
 * destination stays the same (the sink revises it), and starts ACTIVE for a new one.
 */
export function normalizeExportConfigs(next: SubscriptionResource, prev?: SubscriptionResource): void {
  const prevBq = prev?.bigqueryConfig as BigQueryConfigView | undefined;
  const bq = next.bigqueryConfig as BigQueryConfigView | undefined;
  const bqState = prevBq?.table && prevBq.table === bq?.table ? (prevBq.state ?? "ACTIVE") : "ACTIVE";
  next.bigqueryConfig = normalizeBigQueryConfig(next.bigqueryConfig, bqState);
  if (!next.bigqueryConfig) delete next.bigqueryConfig;
  const prevBt = prev?.bigtableConfig as BigtableConfigView | undefined;
  const bt = next.bigtableConfig as BigtableConfigView | undefined;
  const btState = prevBt?.table && prevBt.table === bt?.table ? (prevBt.state ?? "ACTIVE") : "ACTIVE";
  next.bigtableConfig = normalizeBigtableConfig(next.bigtableConfig, btState);
  if (!next.bigtableConfig) delete next.bigtableConfig;
  const gcsState = prev && storageBucketOf(prev) && storageBucketOf(prev) === storageBucketOf(next)
    ? ((prev.cloudStorageConfig as { state?: string }).state ?? "ACTIVE")
    : "ACTIVE";
  next.cloudStorageConfig = normalizeCloudStorageConfig(next.cloudStorageConfig, gcsState, prev?.cloudStorageConfig);
  if (!next.cloudStorageConfig) delete next.cloudStorageConfig;
  checkOneDeliveryKind(next);
}

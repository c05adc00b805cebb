/**
 * The export kinds' configs on a subscription create or update: each validated, and at most one
 * delivery kind set (push, BigQuery, Cloud Storage, Bigtable are mutually exclusive).
 */
import { checkOneDeliveryKind } from "../delivery/kinds.ts";
import type { SubscriptionResource } from "../resources.ts";
import { normalizeBigQueryConfig, type BigQueryConfigView } from "./bigquery/config.ts";
import { normalizeBigtableConfig, type BigtableConfigView } from "./bigtable/config.ts";

/**
 * Validates the BigQuery and Bigtable configs in place. The output-only state is kept while the
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
  checkOneDeliveryKind(next);
}

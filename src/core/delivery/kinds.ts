/**
 * The delivery kinds a subscription config can choose, as the real service defines them: pull
 * (no kind set), push, BigQuery, Cloud Storage, Bigtable, mutually exclusive. This table is the
 * one place that says which config field selects a kind and whether Pull and StreamingPull are
 * allowed on it; what a kind does with messages is its DeliveryRuntime (deliveries.ts).
 */
import { failedPrecondition, invalid, type PubSubError } from "../errors.ts";
import { normalizeBigQuery, normalizeBigtable, normalizeCloudStorage } from "../kinds/export-config.ts";
import { normalizePushConfig } from "./push/push-config.ts";
import type { SubscriptionResource } from "../resources.ts";

export interface DeliveryKindSpec {
  /** The runtime's name, the metric label and what the operator surface shows. */
  readonly name: string;
  /** The config field that holds its settings. */
  readonly field: keyof SubscriptionResource & string;
  /** The config chooses this kind (push_endpoint, table or bucket set). */
  selected(config: SubscriptionResource): boolean;
  /** Validates its config field in place on a create (no `prev`) or an update (INVALID_ARGUMENT). */
  normalize?(next: SubscriptionResource, prev?: SubscriptionResource): void;
  /** What Pull and StreamingPull are answered on a subscription of this kind (absent: allowed). */
  refusal?(): PubSubError;
}

const refusedFor = (label: string) => () => failedPrecondition(`This method is not supported for ${label} subscriptions.`);
const set = (field: keyof SubscriptionResource, key: string) => (config: SubscriptionResource) =>
  !!(config[field] as Record<string, unknown> | undefined)?.[key];

/** Pull and StreamingPull on a push subscription, in the real service's words. */
export const pullOnPush = () => failedPrecondition("This method is not supported for push subscriptions with a defined push configuration.");

export const DELIVERY_KINDS: readonly DeliveryKindSpec[] = [
  {
    name: "push",
    field: "pushConfig",
    selected: set("pushConfig", "pushEndpoint"),
    normalize: (next, prev) => void (next.pushConfig = normalizePushConfig(next.pushConfig, prev?.pushConfig)),
    refusal: pullOnPush,
  },
  { name: "bigquery", field: "bigqueryConfig", selected: set("bigqueryConfig", "table"), normalize: normalizeBigQuery, refusal: refusedFor("BigQuery") },
  {
    name: "cloud_storage",
    field: "cloudStorageConfig",
    selected: set("cloudStorageConfig", "bucket"),
    normalize: normalizeCloudStorage,
    refusal: refusedFor("Cloud Storage"),
  },
  { name: "bigtable", field: "bigtableConfig", selected: set("bigtableConfig", "table"), normalize: normalizeBigtable, refusal: refusedFor("Bigtable") },
];

/** The kind the config chooses; null for pull. */
export function deliveryKindOf(config: SubscriptionResource): DeliveryKindSpec | null {
  for (const k of DELIVERY_KINDS) if (k.selected(config)) return k;
  return null;
}

/** Pull and StreamingPull are allowed on pull subscriptions only: the error for any other kind. */
export function pullRefusal(config: SubscriptionResource): PubSubError | null {
  return deliveryKindOf(config)?.refusal?.() ?? null;
}

/** Every kind's config validated on a create or an update, and at most one of them set. */
export function normalizeDelivery(next: SubscriptionResource, prev?: SubscriptionResource): void {
  for (const k of DELIVERY_KINDS) k.normalize?.(next, prev);
  checkOneDeliveryKind(next);
}

/** At most one kind is set, as the real service checks on create and update. */
function checkOneDeliveryKind(config: SubscriptionResource): void {
  let n = 0;
  for (const k of DELIVERY_KINDS) if (k.selected(config)) n++;
  if (n > 1) {
    throw invalid("Invalid subscription: at most one of push_config, bigquery_config, cloud_storage_config and bigtable_config may be set.");
  }
}

/** Validation and defaults of topic and subscription resources, as the real service applies them. */
import { echo } from "../bounded.ts";
import { invalid } from "../errors.ts";
import { normalizeIngestionSettings } from "../kinds/storage/ingestion-config.ts";
import { LIMITS, checkAckDeadline } from "./limits.ts";
import { byteLength } from "../message.ts";
import { dict } from "../safe-keys.ts";
import type { MaskRules } from "./field-mask.ts";
import { checkKmsKeyName, checkStoragePolicy, checkTags, type MessageStoragePolicy } from "./resource-fields.ts";
import { DAY, MINUTE, SECOND, SUBSCRIPTION_DEFAULTS, type SubscriptionResource, type TopicResource } from "../resources.ts";

const MIN_RETENTION = 10 * MINUTE;
const MAX_RETENTION = 31 * DAY;

/** Top-level fields, plus `field.sub_field` for the sub-fields named (masks never reach map keys). */
function maskPaths(top: readonly string[], nested: Readonly<Record<string, readonly string[]>>): Set<string> {
  const out = new Set(top);
  for (const [field, subs] of Object.entries(nested)) for (const sub of subs) out.add(`${field}.${sub}`);
  return out;
}

export const TOPIC_MASK: MaskRules = {
  kind: "Topic",
  mutable: maskPaths(
    [
      "labels",
      "message_storage_policy",
      "kms_key_name",
      "schema_settings",
      "message_retention_duration",
      "ingestion_data_source_settings",
      "message_transforms",
    ],
    {
      message_storage_policy: ["allowed_persistence_regions", "enforce_in_transit"],
      schema_settings: ["schema", "encoding", "first_revision_id", "last_revision_id"],
    },
  ),
  immutable: new Set(["name", "satisfies_pzs", "state", "tags"]),
};

export const SUBSCRIPTION_MASK: MaskRules = {
  kind: "Subscription",
  mutable: maskPaths(
    [
      "push_config",
      "bigquery_config",
      "cloud_storage_config",
      "bigtable_config",
      "ack_deadline_seconds",
      "retain_acked_messages",
      "message_retention_duration",
      "labels",
      "expiration_policy",
      "dead_letter_policy",
      "retry_policy",
      "enable_exactly_once_delivery",
      "message_transforms",
    ],
    {
      push_config: ["push_endpoint", "attributes", "oidc_token", "pubsub_wrapper", "no_wrapper"],
      expiration_policy: ["ttl"],
      dead_letter_policy: ["dead_letter_topic", "max_delivery_attempts"],
      retry_policy: ["minimum_backoff", "maximum_backoff"],
      bigquery_config: ["table", "use_topic_schema", "write_metadata", "drop_unknown_fields", "use_table_schema", "service_account_email"],
      bigtable_config: ["table", "app_profile_id", "service_account_email", "write_metadata", "column_family_mapping"],
      cloud_storage_config: [
        "bucket", "filename_prefix", "filename_suffix", "filename_datetime_format", "text_config", "avro_config",
        "avro_config.write_metadata", "avro_config.use_topic_schema", "max_duration", "max_bytes", "max_messages", "service_account_email",
      ],
    },
  ),
  immutable: new Set([
    "name",
    "topic",
    "enable_message_ordering",
    "filter",
    "detached",
    "topic_message_retention_duration",
    "state",
    "analytics_hub_subscription_info",
    "tags",
  ]),
};

/** Labels as the real service checks them; the result has no prototype, so every key is data. */
export function checkLabels(labels: Record<string, string> | undefined): Record<string, string> {
  const out = dict();
  if (!labels) return out;
  const entries = Object.entries(labels);
  if (entries.length > 64) throw invalid(`labels has ${entries.length} entries, but the maximum allowed is 64.`);
  for (const [k, v] of entries) {
    if (!/^[\p{Ll}][\p{Ll}\p{N}_-]{0,62}$/u.test(k)) {
      throw invalid(`Invalid label key "${echo(k)}": keys must be 1-63 characters, start with a lowercase letter, and contain only lowercase letters, digits, _ and -.`);
    }
    if (typeof v !== "string" || !/^[\p{Ll}\p{N}_-]{0,63}$/u.test(v)) {
      throw invalid(`Invalid value for label "${echo(k)}": values must be at most 63 lowercase letters, digits, _ or -.`);
    }
    out[k] = v;
  }
  return out;
}

function checkRetention(ms: number | undefined, field: string): void {
  if (ms === undefined) return;
  if (ms < MIN_RETENTION || ms > MAX_RETENTION) {
    throw invalid(`Invalid ${field}: ${ms / SECOND}s. It must be between 600s (10 minutes) and 2678400s (31 days).`);
  }
}

/**
 * A topic as kept: input-only tags checked and dropped, output-only satisfies_pzs ignored, ingestion
 * settings validated (their state is the topic's), unset storage policy and KMS key left out.
 */
export function normalizeTopic(t: TopicResource): TopicResource {
  checkRetention(t.messageRetentionDuration, "message_retention_duration");
  checkTags(t.tags, t.name);
  const { tags: _tags, satisfiesPzs: _pzs, ...kept } = t;
  const ingestion = normalizeIngestionSettings(t.ingestionDataSourceSettings);
  const out: TopicResource = { ...kept, labels: checkLabels(t.labels), state: ingestion.topicState };
  if (ingestion.settings) out.ingestionDataSourceSettings = ingestion.settings;
  else delete out.ingestionDataSourceSettings;
  const policy = checkStoragePolicy(t.messageStoragePolicy as MessageStoragePolicy | undefined);
  if (policy) out.messageStoragePolicy = policy;
  else delete out.messageStoragePolicy;
  const key = checkKmsKeyName(t.kmsKeyName);
  if (key) out.kmsKeyName = key;
  else delete out.kmsKeyName;
  return out;
}

/**
 * A config read back from a data dir written before input-only and output-only fields were
 * dropped on the way in: without them, as a create would have kept it.
 */
export function keptTopic(t: TopicResource): TopicResource {
  if (!("tags" in t) && !("satisfiesPzs" in t)) return t;
  const { tags: _tags, satisfiesPzs: _pzs, ...kept } = t;
  return kept;
}

export function keptSubscription(s: SubscriptionResource): SubscriptionResource {
  if (!("tags" in s) && !("analyticsHubSubscriptionInfo" in s)) return s;
  const { tags: _tags, analyticsHubSubscriptionInfo: _hub, ...kept } = s;
  return kept;
}

export function normalizeSubscription(s: SubscriptionResource): SubscriptionResource {
  const ack = s.ackDeadlineSeconds || SUBSCRIPTION_DEFAULTS.ackDeadlineSeconds;
  checkAckDeadline(ack, "ack_deadline_seconds");
  const retention = s.messageRetentionDuration || SUBSCRIPTION_DEFAULTS.messageRetentionDuration;
  checkRetention(retention, "message_retention_duration");
  checkTags(s.tags, s.name);
  // Input-only tags and output-only Analytics Hub info are never kept (the proto: ignored if sent).
  const { tags: _tags, analyticsHubSubscriptionInfo: _hub, ...kept } = s;
  const out: SubscriptionResource = {
    ...kept,
    ackDeadlineSeconds: ack,
    messageRetentionDuration: retention,
    labels: checkLabels(s.labels),
    retainAckedMessages: !!s.retainAckedMessages,
    enableMessageOrdering: !!s.enableMessageOrdering,
    enableExactlyOnceDelivery: !!s.enableExactlyOnceDelivery,
    detached: !!s.detached,
    filter: s.filter ?? "",
    expirationPolicy: s.expirationPolicy ?? { ttl: SUBSCRIPTION_DEFAULTS.expirationTtl },
    state: "ACTIVE",
  };
  const ttl = out.expirationPolicy?.ttl;
  if (ttl !== undefined && ttl !== 0) {
    if (ttl < DAY) throw invalid(`Invalid expiration_policy.ttl: ${ttl / SECOND}s. The minimum allowed value is 86400s (1 day).`);
    if (ttl < retention) {
      throw invalid("Invalid expiration_policy.ttl: it must be greater than or equal to message_retention_duration.");
    }
  } else if (out.expirationPolicy) out.expirationPolicy = {};
  if (byteLength(out.filter) > LIMITS.filterBytes) {
    throw invalid(`Invalid filter: it is ${byteLength(out.filter)} bytes, but the maximum allowed is ${LIMITS.filterBytes}.`);
  }
  if (out.deadLetterPolicy) {
    const d = out.deadLetterPolicy;
    const max = d.maxDeliveryAttempts || SUBSCRIPTION_DEFAULTS.maxDeliveryAttempts;
    if (max < 5 || max > 100) {
      throw invalid(`Invalid dead_letter_policy.max_delivery_attempts: ${max}. It must be between 5 and 100.`);
    }
    if (!d.deadLetterTopic) throw invalid("dead_letter_policy.dead_letter_topic is required.");
    out.deadLetterPolicy = { deadLetterTopic: d.deadLetterTopic, maxDeliveryAttempts: max };
  }
  if (out.retryPolicy) {
    const r = out.retryPolicy;
    for (const [field, v] of [["minimum_backoff", r.minimumBackoff], ["maximum_backoff", r.maximumBackoff]] as const) {
      if (v !== undefined && (v < 0 || v > 600 * SECOND)) {
        throw invalid(`Invalid retry_policy.${field}: ${v / SECOND}s. It must be between 0s and 600s.`);
      }
    }
    // Unset bounds take the real service's defaults, which Get then reports.
    out.retryPolicy = {
      minimumBackoff: r.minimumBackoff ?? SUBSCRIPTION_DEFAULTS.minimumBackoff,
      maximumBackoff: r.maximumBackoff ?? SUBSCRIPTION_DEFAULTS.maximumBackoff,
    };
    if (out.retryPolicy.minimumBackoff! > out.retryPolicy.maximumBackoff!) {
      throw invalid("Invalid retry_policy: minimum_backoff must not be greater than maximum_backoff.");
    }
  }
  return out;
}

/**
 * The newer resource fields, checked as the real service checks them (pubsub.proto's field
 * behaviours, the same in the Node, Go and Python clients' protos): a topic's
 * message_storage_policy and kms_key_name, and the input-only `tags` of topics, subscriptions and
 * snapshots. Output-only fields a client sends (analytics_hub_subscription_info, satisfies_pzs)
 * are ignored, as the proto says; an update mask naming them is refused (field-mask.ts).
 */
import { echo } from "../bounded.ts";
import { invalid } from "../errors.ts";

/** A few more than the regions there are: the list is client input held for the topic's life. */
const MAX_REGIONS = 100;
/** Resource Manager's limit of tags bound directly to one resource. */
const MAX_TAGS = 50;

/** A Google Cloud region id: `us-central1`, `europe-west4`, `northamerica-northeast2`. */
const REGION = /^[a-z]+(?:-[a-z]+)+[0-9]{1,2}$/;
const KMS_KEY = /^projects\/[^/]+\/locations\/[^/]+\/keyRings\/[^/]+\/cryptoKeys\/[^/]+$/;
/** A tag key or value short name: 1–63 characters, alphanumeric at both ends, `-_.` between. */
const SHORT_NAME = "[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?";
/** `{org id or project id}/{short name}` (the namespaced name), or a `tagKeys/{id}`. */
const TAG_KEY = new RegExp(`^(?:tagKeys/[0-9]{1,20}|(?:[0-9]{1,20}|[a-z][a-z0-9-]{4,28}[a-z0-9])/${SHORT_NAME})$`);
const TAG_VALUE = new RegExp(`^(?:tagValues/[0-9]{1,20}|${SHORT_NAME})$`);

export interface MessageStoragePolicy {
  allowedPersistenceRegions?: string[];
  enforceInTransit?: boolean;
}

/**
 * A set policy must name at least one region ("an empty list means that no regions are allowed,
 * and is not a valid configuration"), enforce_in_transit included. Unset means no constraint.
 */
export function checkStoragePolicy(p: MessageStoragePolicy | undefined): MessageStoragePolicy | undefined {
  if (p === undefined || p === null) return undefined;
  const regions = p.allowedPersistenceRegions ?? [];
  if (!Array.isArray(regions) || regions.length === 0) {
    throw invalid(
      "Invalid message_storage_policy: allowed_persistence_regions is empty, which allows no region and is not a valid configuration. " +
        'Name at least one region (like "us-central1"), or leave message_storage_policy unset.',
    );
  }
  if (regions.length > MAX_REGIONS) {
    throw invalid(`Invalid message_storage_policy.allowed_persistence_regions: ${regions.length} regions, but the maximum allowed is ${MAX_REGIONS}.`);
  }
  for (const r of regions) {
    if (typeof r !== "string" || !REGION.test(r)) {
      throw invalid(`Invalid region "${echo(r)}" in message_storage_policy.allowed_persistence_regions: expected a Google Cloud region id like "us-central1".`);
    }
  }
  return { allowedPersistenceRegions: [...regions], enforceInTransit: !!p.enforceInTransit };
}

/** Empty is unset (Google-managed encryption); anything else must be a CryptoKey's full name. */
export function checkKmsKeyName(name: string | undefined): string | undefined {
  if (!name) return undefined;
  if (!KMS_KEY.test(name)) {
    throw invalid(`Invalid kms_key_name "${echo(name)}": the expected format is projects/*/locations/*/keyRings/*/cryptoKeys/*.`);
  }
  return name;
}

/**
 * Tags are input only: checked on create, then dropped, so no read ever returns them. Keys are
 * namespaced (`123/environment`) or ids (`tagKeys/456`); values short names or `tagValues/789`.
 */
export function checkTags(tags: Record<string, string> | undefined, where: string): void {
  if (!tags) return;
  const entries = Object.entries(tags);
  if (entries.length > MAX_TAGS) throw invalid(`Invalid tags on ${echo(where, 300)}: ${entries.length} tags, but the maximum allowed is ${MAX_TAGS}.`);
  for (const [k, v] of entries) {
    if (!TAG_KEY.test(k)) {
      throw invalid(`Invalid tag key "${echo(k)}" in tags: expected a namespaced key like "123/environment" or an id like "tagKeys/456".`);
    }
    if (typeof v !== "string" || !TAG_VALUE.test(v)) {
      throw invalid(`Invalid value "${echo(v)}" for tag "${echo(k)}" in tags: expected a short name like "production" or an id like "tagValues/789".`);
    }
  }
}

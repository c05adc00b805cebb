/**
 * The newer resource fields: message_storage_policy, kms_key_name, the input-only immutable tags
 * and the output-only analytics_hub_subscription_info, on create and through update masks.
 */
import { createSub, pub, snapPath, subr, topicPath, type Obj, type StatusRow } from "./row.ts";

const KMS = "projects/p/locations/us-central1/keyRings/ring/cryptoKeys/key";
const createTopic = (extra: Obj) => pub("CreateTopic", () => ({ name: topicPath(), ...extra }));
const updateTopic = (topic: Obj, paths: string[]) => pub("UpdateTopic", (f) => ({ topic: { name: f.topic, ...topic }, updateMask: { paths } }));

export const RESOURCE_FIELD_ROWS: StatusRow[] = [
  // message_storage_policy
  {
    name: "CreateTopic with an empty allowed_persistence_regions → INVALID_ARGUMENT",
    call: createTopic({ messageStoragePolicy: { allowedPersistenceRegions: [] } }),
    code: "INVALID_ARGUMENT",
    mentions: "allowed_persistence_regions is empty",
  },
  {
    name: "CreateTopic with enforce_in_transit and no region → INVALID_ARGUMENT",
    call: createTopic({ messageStoragePolicy: { enforceInTransit: true } }),
    code: "INVALID_ARGUMENT",
    mentions: "allowed_persistence_regions",
  },
  {
    name: "CreateTopic with a region that is not a region id → INVALID_ARGUMENT",
    call: createTopic({ messageStoragePolicy: { allowedPersistenceRegions: ["us-central1", "Moon Base"] } }),
    code: "INVALID_ARGUMENT",
    mentions: 'region "Moon Base"',
  },
  {
    name: "UpdateTopic setting an empty region list → INVALID_ARGUMENT",
    call: updateTopic({ messageStoragePolicy: { allowedPersistenceRegions: [] } }, ["message_storage_policy"]),
    code: "INVALID_ARGUMENT",
    mentions: "allowed_persistence_regions",
  },
  {
    name: "UpdateTopic of enforce_in_transit alone on a topic without regions → INVALID_ARGUMENT",
    call: updateTopic({ messageStoragePolicy: { enforceInTransit: true } }, ["message_storage_policy.enforce_in_transit"]),
    code: "INVALID_ARGUMENT",
    mentions: "allowed_persistence_regions",
  },
  // kms_key_name
  ...["not-a-key", "projects/p/locations/l/keyRings/r", `${KMS}/cryptoKeyVersions/1`].map(
    (key): StatusRow => ({
      name: `CreateTopic with kms_key_name "${key}" → INVALID_ARGUMENT`,
      call: createTopic({ kmsKeyName: key }),
      code: "INVALID_ARGUMENT",
      mentions: "projects/*/locations/*/keyRings/*/cryptoKeys/*",
    }),
  ),
  {
    name: "UpdateTopic to a malformed kms_key_name → INVALID_ARGUMENT",
    call: updateTopic({ kmsKeyName: "keyRings/r/cryptoKeys/k" }, ["kms_key_name"]),
    code: "INVALID_ARGUMENT",
    mentions: "kms_key_name",
  },
  // tags: input only, immutable
  {
    name: "CreateTopic with a malformed tag key → INVALID_ARGUMENT",
    call: createTopic({ tags: { environment: "production" } }),
    code: "INVALID_ARGUMENT",
    mentions: 'tag key "environment"',
  },
  {
    name: "CreateSubscription with a malformed tag value → INVALID_ARGUMENT",
    call: createSub({ tags: { "123/environment": "not valid!" } }),
    code: "INVALID_ARGUMENT",
    mentions: "tags",
  },
  {
    name: "CreateSnapshot with a malformed tag → INVALID_ARGUMENT",
    call: subr("CreateSnapshot", (f) => ({ name: snapPath(), subscription: f.sub, tags: { "123/": "x" } })),
    code: "INVALID_ARGUMENT",
    mentions: "tags",
  },
  {
    name: "CreateTopic with 51 tags → INVALID_ARGUMENT",
    call: createTopic({ tags: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`123/key-${i}`, "v"])) }),
    code: "INVALID_ARGUMENT",
    mentions: "maximum allowed is 50",
  },
  {
    name: "UpdateTopic of tags → INVALID_ARGUMENT (immutable)",
    call: updateTopic({ tags: { "123/environment": "production" } }, ["tags"]),
    code: "INVALID_ARGUMENT",
    mentions: '"tags" is not mutable',
  },
  {
    name: "UpdateSubscription of tags → INVALID_ARGUMENT (immutable)",
    call: subr("UpdateSubscription", (f) => ({ subscription: { name: f.sub, tags: { "123/environment": "production" } }, updateMask: { paths: ["tags"] } })),
    code: "INVALID_ARGUMENT",
    mentions: '"tags" is not mutable',
  },
  // analytics_hub_subscription_info: output only
  {
    name: "UpdateSubscription of analytics_hub_subscription_info → INVALID_ARGUMENT (output only)",
    call: subr("UpdateSubscription", (f) => ({
      subscription: { name: f.sub, analyticsHubSubscriptionInfo: { listing: "projects/p/locations/us/dataExchanges/d/listings/l" } },
      updateMask: { paths: ["analytics_hub_subscription_info"] },
    })),
    code: "INVALID_ARGUMENT",
    mentions: "analytics_hub_subscription_info",
  },
  {
    name: "UpdateSubscription of analytics_hub_subscription_info.listing → INVALID_ARGUMENT (output only)",
    call: subr("UpdateSubscription", (f) => ({ subscription: { name: f.sub }, updateMask: { paths: ["analytics_hub_subscription_info.listing"] } })),
    code: "INVALID_ARGUMENT",
    mentions: "analytics_hub_subscription_info.listing",
  },
];

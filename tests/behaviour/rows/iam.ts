/** IAMPolicy on topics, subscriptions and snapshots. */
import { iam, snapPath, topicPath, type StatusRow } from "./row.ts";

export const IAM_ROWS: StatusRow[] = [
  {
    name: "GetIamPolicy of a missing topic → NOT_FOUND",
    call: iam("GetIamPolicy", () => ({ resource: topicPath("missing-iam") })),
    code: "NOT_FOUND",
    mentions: "missing-iam",
  },
  {
    name: "GetIamPolicy of a missing snapshot → NOT_FOUND",
    call: iam("GetIamPolicy", () => ({ resource: snapPath("missing-iam-snap") })),
    code: "NOT_FOUND",
    mentions: "missing-iam-snap",
  },
  {
    name: "GetIamPolicy of something else → INVALID_ARGUMENT",
    call: iam("GetIamPolicy", () => ({ resource: "projects/p/buckets/b" })),
    code: "INVALID_ARGUMENT",
    mentions: "resource",
  },
  {
    name: "SetIamPolicy with a stale etag → ABORTED",
    call: iam("SetIamPolicy", (f) => ({ resource: f.topic, policy: { bindings: [], etag: f.staleEtag } })),
    code: "ABORTED",
    mentions: "concurrent policy changes",
  },
  {
    name: "SetIamPolicy with a bad member → INVALID_ARGUMENT",
    call: iam("SetIamPolicy", (f) => ({ resource: f.topic, policy: { bindings: [{ role: "roles/pubsub.viewer", members: ["everyone"] }] } })),
    code: "INVALID_ARGUMENT",
    mentions: "everyone",
  },
  {
    name: "TestIamPermissions with a wildcard → INVALID_ARGUMENT",
    call: iam("TestIamPermissions", (f) => ({ resource: f.topic, permissions: ["pubsub.*"] })),
    code: "INVALID_ARGUMENT",
    mentions: "pubsub.*",
  },
];

/** Ack deadlines, Pull and StreamingPull, subscription settings, push configs and exactly-once acks. */
import { createSub, subPath, subr, type StatusRow } from "./row.ts";

/** The ErrorInfo the official clients read per ack id from an exactly-once failure. */
const invalidAckId = (ackId: string): StatusRow["errorInfo"] => ({
  reason: "EXACTLY_ONCE_ACKID_FAILURE",
  domain: "pubsub.googleapis.com",
  metadata: { [ackId]: "PERMANENT_FAILURE_INVALID_ACK_ID" },
});

export const SUBSCRIPTION_ROWS: StatusRow[] = [
  // ack deadlines and pull
  ...[9, 601].map(
    (n): StatusRow => ({
      name: `CreateSubscription with ack deadline ${n} → INVALID_ARGUMENT with a BadRequest detail`,
      call: createSub({ ackDeadlineSeconds: n }),
      code: "INVALID_ARGUMENT",
      mentions: "ack_deadline_seconds",
      violation: "ack_deadline_seconds",
    }),
  ),
  ...[601, -1].map(
    (n): StatusRow => ({
      name: `ModifyAckDeadline ${n} → INVALID_ARGUMENT with a BadRequest detail`,
      call: subr("ModifyAckDeadline", (f) => ({ subscription: f.sub, ackIds: ["some-ack-id"], ackDeadlineSeconds: n })),
      code: "INVALID_ARGUMENT",
      mentions: "ack_deadline_seconds",
      violation: "ack_deadline_seconds",
    }),
  ),
  {
    name: "Acknowledge with no ack ids → INVALID_ARGUMENT",
    call: subr("Acknowledge", (f) => ({ subscription: f.sub, ackIds: [] })),
    code: "INVALID_ARGUMENT",
    mentions: "ack_ids",
  },
  {
    name: "Pull with max_messages 0 → INVALID_ARGUMENT",
    call: subr("Pull", (f) => ({ subscription: f.sub, maxMessages: 0, returnImmediately: true })),
    code: "INVALID_ARGUMENT",
    mentions: "max_messages",
  },
  {
    name: "StreamingPull first request without subscription → INVALID_ARGUMENT",
    stream: () => [{ streamAckDeadlineSeconds: 10 }],
    code: "INVALID_ARGUMENT",
    mentions: "subscription",
  },
  ...[5, 601].map(
    (n): StatusRow => ({
      name: `StreamingPull with stream_ack_deadline_seconds ${n} → INVALID_ARGUMENT`,
      stream: (f) => [{ subscription: f.sub, streamAckDeadlineSeconds: n }],
      code: "INVALID_ARGUMENT",
      mentions: "stream_ack_deadline_seconds",
    }),
  ),
  {
    name: "StreamingPull on a missing subscription → NOT_FOUND",
    stream: () => [{ subscription: subPath("missing-sp"), streamAckDeadlineSeconds: 10 }],
    code: "NOT_FOUND",
    mentions: "missing-sp",
  },
  // subscription settings
  {
    name: "CreateSubscription with 1 min retention → INVALID_ARGUMENT",
    call: createSub({ messageRetentionDuration: { seconds: 60 } }),
    code: "INVALID_ARGUMENT",
    mentions: "message_retention_duration",
  },
  {
    name: "CreateSubscription with a 1 h expiration ttl → INVALID_ARGUMENT",
    call: createSub({ expirationPolicy: { ttl: { seconds: 3600 } } }),
    code: "INVALID_ARGUMENT",
    mentions: "expiration_policy",
  },
  {
    name: "CreateSubscription with max_delivery_attempts 4 → INVALID_ARGUMENT",
    call: createSub((f) => ({ deadLetterPolicy: { deadLetterTopic: f.topic, maxDeliveryAttempts: 4 } })),
    code: "INVALID_ARGUMENT",
    mentions: "max_delivery_attempts",
  },
  {
    name: "CreateSubscription with minimum_backoff 601 s → INVALID_ARGUMENT",
    call: createSub({ retryPolicy: { minimumBackoff: { seconds: 601 } } }),
    code: "INVALID_ARGUMENT",
    mentions: "minimum_backoff",
  },
  {
    name: "CreateSubscription with a 300-byte filter → INVALID_ARGUMENT",
    call: createSub({ filter: `attributes.k = "${"x".repeat(280)}"` }),
    code: "INVALID_ARGUMENT",
    mentions: "filter",
  },
  // push configs
  {
    name: "CreateSubscription with a push endpoint that is not a URL → INVALID_ARGUMENT",
    call: createSub({ pushConfig: { pushEndpoint: "nope" } }),
    code: "INVALID_ARGUMENT",
    mentions: "push_config.push_endpoint",
  },
  {
    name: "ModifyPushConfig with an OIDC token without a service account → INVALID_ARGUMENT",
    call: subr("ModifyPushConfig", (f) => ({ subscription: f.pushSub, pushConfig: { pushEndpoint: "http://127.0.0.1:9/push", oidcToken: {} } })),
    code: "INVALID_ARGUMENT",
    mentions: "service_account_email",
  },
  {
    name: "Pull on a push subscription → FAILED_PRECONDITION",
    call: subr("Pull", (f) => ({ subscription: f.pushSub, maxMessages: 1 })),
    code: "FAILED_PRECONDITION",
    mentions: "push",
  },
  // exactly-once
  {
    name: "Acknowledge of an unknown ack id on an exactly-once subscription → INVALID_ARGUMENT with an ErrorInfo",
    call: subr("Acknowledge", (f) => ({ subscription: f.eodSub, ackIds: ["stale-1"] })),
    code: "INVALID_ARGUMENT",
    mentions: "acknowledgement ids",
    errorInfo: invalidAckId("stale-1"),
  },
  {
    name: "ModifyAckDeadline of an unknown ack id on an exactly-once subscription → INVALID_ARGUMENT with an ErrorInfo",
    call: subr("ModifyAckDeadline", (f) => ({ subscription: f.eodSub, ackIds: ["stale-2"], ackDeadlineSeconds: 30 })),
    code: "INVALID_ARGUMENT",
    mentions: "acknowledgement ids",
    errorInfo: invalidAckId("stale-2"),
  },
];

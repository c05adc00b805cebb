/** Lookups, existence, detached subscriptions, update masks and listing of topics and subscriptions. */
import { PARENT, createSub, data, pub, subPath, subr, topicPath, type StatusRow } from "./row.ts";

export const RESOURCE_ROWS: StatusRow[] = [
  // NOT_FOUND / ALREADY_EXISTS / FAILED_PRECONDITION
  {
    name: "Publish to a missing topic → NOT_FOUND",
    call: pub("Publish", () => ({ topic: topicPath("missing-pub"), messages: [{ data: data() }] })),
    code: "NOT_FOUND",
    mentions: "missing-pub",
  },
  { name: "GetTopic of a missing topic → NOT_FOUND", call: pub("GetTopic", () => ({ topic: topicPath("missing-get") })), code: "NOT_FOUND", mentions: "missing-get" },
  { name: "DeleteTopic of a missing topic → NOT_FOUND", call: pub("DeleteTopic", () => ({ topic: topicPath("missing-del") })), code: "NOT_FOUND", mentions: "missing-del" },
  {
    name: "GetSubscription of a missing subscription → NOT_FOUND",
    call: subr("GetSubscription", () => ({ subscription: subPath("missing-gs") })),
    code: "NOT_FOUND",
    mentions: "missing-gs",
  },
  {
    name: "CreateSubscription on a missing topic → NOT_FOUND",
    call: subr("CreateSubscription", () => ({ name: subPath(), topic: topicPath("missing-cs") })),
    code: "NOT_FOUND",
    mentions: "missing-cs",
  },
  {
    name: "CreateSubscription with a missing dead-letter topic → NOT_FOUND",
    call: createSub({ deadLetterPolicy: { deadLetterTopic: topicPath("missing-dlq"), maxDeliveryAttempts: 5 } }),
    code: "NOT_FOUND",
    mentions: "missing-dlq",
  },
  {
    name: "Pull on a missing subscription → NOT_FOUND",
    call: subr("Pull", () => ({ subscription: subPath("missing-pull"), maxMessages: 1 })),
    code: "NOT_FOUND",
    mentions: "missing-pull",
  },
  { name: "CreateTopic of an existing topic → ALREADY_EXISTS", call: pub("CreateTopic", (f) => ({ name: f.topic })), code: "ALREADY_EXISTS", mentions: (f) => f.topic },
  {
    name: "CreateSubscription of an existing name → ALREADY_EXISTS",
    call: subr("CreateSubscription", (f) => ({ name: f.sub, topic: f.topic })),
    code: "ALREADY_EXISTS",
    mentions: (f) => f.sub,
  },
  {
    name: "Pull on a detached subscription → FAILED_PRECONDITION",
    call: subr("Pull", (f) => ({ subscription: f.detached, maxMessages: 1, returnImmediately: true })),
    code: "FAILED_PRECONDITION",
    mentions: "detached",
  },
  {
    name: "StreamingPull on a detached subscription → FAILED_PRECONDITION",
    stream: (f) => [{ subscription: f.detached, streamAckDeadlineSeconds: 10 }],
    code: "FAILED_PRECONDITION",
    mentions: "detached",
  },
  // update masks
  {
    name: "UpdateTopic with an empty mask → INVALID_ARGUMENT",
    call: pub("UpdateTopic", (f) => ({ topic: { name: f.topic, labels: { a: "b" } }, updateMask: { paths: [] } })),
    code: "INVALID_ARGUMENT",
    mentions: "update_mask",
  },
  {
    name: "UpdateTopic with an unknown path → INVALID_ARGUMENT",
    call: pub("UpdateTopic", (f) => ({ topic: { name: f.topic }, updateMask: { paths: ["no_such_field"] } })),
    code: "INVALID_ARGUMENT",
    mentions: "no_such_field",
  },
  {
    name: "UpdateSubscription with an empty mask → INVALID_ARGUMENT",
    call: subr("UpdateSubscription", (f) => ({ subscription: { name: f.sub, ackDeadlineSeconds: 20 }, updateMask: { paths: [] } })),
    code: "INVALID_ARGUMENT",
    mentions: "update_mask",
  },
  ...["enable_message_ordering", "filter", "name"].map(
    (path): StatusRow => ({
      name: `UpdateSubscription of immutable ${path} → INVALID_ARGUMENT`,
      call: subr("UpdateSubscription", (f) => ({
        subscription: { name: f.sub, topic: f.topic, enableMessageOrdering: true, filter: "attributes:x" },
        updateMask: { paths: [path] },
      })),
      code: "INVALID_ARGUMENT",
      mentions: path,
    }),
  ),
  // listing
  {
    name: "ListTopics with a garbage page_token → INVALID_ARGUMENT",
    call: pub("ListTopics", () => ({ project: PARENT, pageSize: 1, pageToken: "garbage" })),
    code: "INVALID_ARGUMENT",
    mentions: "page_token",
  },
  {
    name: "ListTopics with page_size -1 → INVALID_ARGUMENT",
    call: pub("ListTopics", () => ({ project: PARENT, pageSize: -1 })),
    code: "INVALID_ARGUMENT",
    mentions: "page_size",
  },
];

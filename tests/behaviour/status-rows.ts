/**
 * Status codes and messages as data: one row per validation rule of the real service (see
 * /work/shared/reference/limits-and-errors.md). status.test.ts runs every row over gRPC and over
 * REST against one emulator; a row says where REST's front end answers differently, and which rows
 * have no REST form (StreamingPull has no HTTP binding on the real service either; a name outside
 * the path template cannot be put in a URL).
 */
import { PROJECT, unique } from "../helpers/emulator.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

/** The resources the rows share: a topic, a subscription on it, a detached subscription. */
export interface Fixtures {
  topic: string;
  sub: string;
  detached: string;
}

export type Code = "INVALID_ARGUMENT" | "NOT_FOUND" | "ALREADY_EXISTS" | "FAILED_PRECONDITION";
type Mentions = string | ((f: Fixtures) => string);

export interface StatusRow {
  name: string;
  /** A unary call: service, method and the request (proto-loader shape, as the table takes it). */
  call?: [service: string, method: string, request: (f: Fixtures) => Obj];
  /** A StreamingPull: the requests written; gRPC only. */
  stream?: (f: Fixtures) => Obj[];
  code: Code;
  /** The message must name the field or the limit. */
  mentions: Mentions;
  /** The error carries a google.rpc.BadRequest naming this field, on every transport. */
  violation?: string;
  /** Why a unary row has no REST form. */
  grpcOnly?: string;
  /** Where REST's front end answers before the service does. */
  rest?: { code: Code; mentions: Mentions };
}

export const topicPath = (id = unique("t")) => `projects/${PROJECT}/topics/${id}`;
export const subPath = (id = unique("s")) => `projects/${PROJECT}/subscriptions/${id}`;
const data = (s = "x") => Buffer.from(s);
const attrs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));

const pub = (method: string, request: (f: Fixtures) => Obj): StatusRow["call"] => ["Publisher", method, request];
const subr = (method: string, request: (f: Fixtures) => Obj): StatusRow["call"] => ["Subscriber", method, request];
const publish = (...messages: Obj[]) => pub("Publish", (f) => ({ topic: f.topic, messages }));
const createSub = (extra: Obj | ((f: Fixtures) => Obj)) =>
  subr("CreateSubscription", (f) => ({ name: subPath(), topic: f.topic, ...(typeof extra === "function" ? extra(f) : extra) }));

/** REST bodies carry bytes in base64: past the front end's 10 MiB cap, it answers first. */
const REST_BODY_CAP = { code: "INVALID_ARGUMENT", mentions: "10485760" } as const;

/** 78 messages of 100 attributes of 1 KiB: over 10,000,000 bytes encoded, under the REST cap as JSON. */
const bigAttributes = () =>
  Array.from({ length: 78 }, () => ({
    attributes: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`.padEnd(256, "k"), "v".repeat(1024)])),
  }));

const nameRows: StatusRow[] = [
  ["2 characters", "ab"],
  ["256 characters", "a" + "b".repeat(255)],
  ["starting with a digit", "1abc"],
  ["with the goog prefix", "goog-topic"],
  ["with a bad character", "bad$name"],
].map(([why, id]) => ({
  name: `CreateTopic id ${why} → INVALID_ARGUMENT`,
  call: pub("CreateTopic", () => ({ name: `projects/${PROJECT}/topics/${id}` })),
  code: "INVALID_ARGUMENT",
  mentions: id,
}));

export const ROWS: StatusRow[] = [
  ...nameRows,
  {
    name: "CreateTopic in the subscriptions collection → INVALID_ARGUMENT",
    call: pub("CreateTopic", () => ({ name: `projects/${PROJECT}/subscriptions/abc` })),
    code: "INVALID_ARGUMENT",
    mentions: "name",
    grpcOnly: "over REST that path is CreateSubscription's",
  },
  {
    name: "CreateSubscription with a malformed topic → INVALID_ARGUMENT",
    call: subr("CreateSubscription", () => ({ name: subPath(), topic: `projects/${PROJECT}/subscriptions/abc` })),
    code: "INVALID_ARGUMENT",
    mentions: "topic",
  },
  // publish limits
  { name: "Publish of 0 messages → INVALID_ARGUMENT", call: publish(), code: "INVALID_ARGUMENT", mentions: "message_count" },
  {
    name: "Publish of 1001 messages → INVALID_ARGUMENT",
    call: publish(...Array.from({ length: 1001 }, () => ({ data: data() }))),
    code: "INVALID_ARGUMENT",
    mentions: "1000",
  },
  { name: "Publish of an empty message → INVALID_ARGUMENT", call: publish({}), code: "INVALID_ARGUMENT", mentions: "empty" },
  { name: "Publish with 101 attributes → INVALID_ARGUMENT", call: publish({ attributes: attrs(101) }), code: "INVALID_ARGUMENT", mentions: "100" },
  {
    name: "Publish with a 257-byte attribute key → INVALID_ARGUMENT",
    call: publish({ attributes: { ["k".repeat(257)]: "v" } }),
    code: "INVALID_ARGUMENT",
    mentions: "256",
  },
  {
    name: "Publish with a 1025-byte attribute value → INVALID_ARGUMENT",
    call: publish({ attributes: { k: "v".repeat(1025) } }),
    code: "INVALID_ARGUMENT",
    mentions: "1024",
  },
  {
    name: "Publish with a 513×'é' (1026-byte) attribute value → INVALID_ARGUMENT",
    call: publish({ attributes: { k: "é".repeat(513) } }),
    code: "INVALID_ARGUMENT",
    mentions: "1024",
  },
  {
    name: "Publish with a 1025-byte ordering key → INVALID_ARGUMENT",
    call: publish({ data: data(), orderingKey: "o".repeat(1025) }),
    code: "INVALID_ARGUMENT",
    mentions: "ordering_key",
  },
  {
    name: "Publish with mixed ordering keys → FAILED_PRECONDITION",
    call: publish({ data: data(), orderingKey: "a" }, { data: data(), orderingKey: "b" }),
    code: "FAILED_PRECONDITION",
    mentions: "ordering key",
  },
  {
    name: "Publish of 10 MB + 1 byte → INVALID_ARGUMENT, not the transport's RESOURCE_EXHAUSTED",
    call: publish({ data: Buffer.alloc(10_000_001) }),
    code: "INVALID_ARGUMENT",
    mentions: "10000000",
    rest: REST_BODY_CAP,
  },
  {
    name: "Publish whose serialized request exceeds 10,000,000 bytes (data exactly 10,000,000) → INVALID_ARGUMENT",
    call: publish({ data: Buffer.alloc(10_000_000) }),
    code: "INVALID_ARGUMENT",
    mentions: "request_size",
    rest: REST_BODY_CAP,
  },
  {
    name: "Publish whose attributes encode to over 10,000,000 bytes → INVALID_ARGUMENT request_size",
    call: publish(...bigAttributes()),
    code: "INVALID_ARGUMENT",
    mentions: "request_size",
  },
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
  // listing
  {
    name: "ListTopics with a garbage page_token → INVALID_ARGUMENT",
    call: pub("ListTopics", () => ({ project: `projects/${PROJECT}`, pageSize: 1, pageToken: "garbage" })),
    code: "INVALID_ARGUMENT",
    mentions: "page_token",
  },
  {
    name: "ListTopics with page_size -1 → INVALID_ARGUMENT",
    call: pub("ListTopics", () => ({ project: `projects/${PROJECT}`, pageSize: -1 })),
    code: "INVALID_ARGUMENT",
    mentions: "page_size",
  },
];

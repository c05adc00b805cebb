/**
 * Resource names and publish limits: each rule of the real service with the field or limit its
 * message names (/work/shared/reference/limits-and-errors.md).
 */
import { PARENT, data, pub, publish, subPath, subr, type StatusRow } from "./row.ts";

const attrs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));

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
  call: pub("CreateTopic", () => ({ name: `${PARENT}/topics/${id}` })),
  code: "INVALID_ARGUMENT",
  mentions: id,
}));

export const NAME_AND_PUBLISH_ROWS: StatusRow[] = [
  ...nameRows,
  {
    name: "CreateTopic in the subscriptions collection → INVALID_ARGUMENT",
    call: pub("CreateTopic", () => ({ name: `${PARENT}/subscriptions/abc` })),
    code: "INVALID_ARGUMENT",
    mentions: "name",
    grpcOnly: "over REST that path is CreateSubscription's",
  },
  {
    name: "CreateSubscription with a malformed topic → INVALID_ARGUMENT",
    call: subr("CreateSubscription", () => ({ name: subPath(), topic: `${PARENT}/subscriptions/abc` })),
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
];

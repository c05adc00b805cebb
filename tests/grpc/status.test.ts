/**
 * Status codes and messages through a raw grpc-js client against a real server: one row per
 * validation rule of the real service (see /work/shared/reference/limits-and-errors.md).
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { CALL_TIMEOUT_MS, rawClients, statusOf, streamStatus, type RawClients } from "../helpers/raw-grpc.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const S = grpc.status;
const topicPath = (id = unique("t")) => `projects/${PROJECT}/topics/${id}`;
const subPath = (id = unique("s")) => `projects/${PROJECT}/subscriptions/${id}`;

let emu: TestEmulator;
let c: RawClients;
/** A topic, a subscription on it, and a detached subscription, shared by the rows. */
let topic: string;
let sub: string;
let detached: string;

const pub = (method: string, req: Obj) => c.call(c.publisher, method, req);
const subr = (method: string, req: Obj) => c.call(c.subscriber, method, req);
const publish = (...messages: Obj[]) => pub("Publish", { topic, messages });
const createSub = (extra: Obj) => subr("CreateSubscription", { name: subPath(), topic, ...extra });
const data = (s = "x") => Buffer.from(s);
const attrs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));

beforeAll(async () => {
  emu = await startTestEmulator();
  c = rawClients(emu.endpoint);
  topic = topicPath();
  sub = subPath();
  detached = subPath();
  await pub("CreateTopic", { name: topic });
  await subr("CreateSubscription", { name: sub, topic });
  await subr("CreateSubscription", { name: detached, topic });
  await pub("DetachSubscription", { subscription: detached });
});

afterAll(async () => {
  c?.close();
  await emu?.close();
});

interface Row {
  name: string;
  run: () => Promise<unknown>;
  code: grpc.status;
  /** The message must name the field or the limit. */
  mentions: string | (() => string);
}

const nameRows: Row[] = [
  ["2 characters", "ab"],
  ["256 characters", "a" + "b".repeat(255)],
  ["starting with a digit", "1abc"],
  ["with the goog prefix", "goog-topic"],
  ["with a bad character", "bad$name"],
].map(([why, id]) => ({
  name: `CreateTopic id ${why} → INVALID_ARGUMENT`,
  run: () => pub("CreateTopic", { name: `projects/${PROJECT}/topics/${id}` }),
  code: S.INVALID_ARGUMENT,
  mentions: id,
}));

const rows: Row[] = [
  ...nameRows,
  {
    name: "CreateTopic in the subscriptions collection → INVALID_ARGUMENT",
    run: () => pub("CreateTopic", { name: `projects/${PROJECT}/subscriptions/abc` }),
    code: S.INVALID_ARGUMENT,
    mentions: "name",
  },
  {
    name: "CreateSubscription with a malformed topic → INVALID_ARGUMENT",
    run: () => subr("CreateSubscription", { name: subPath(), topic: `projects/${PROJECT}/subscriptions/abc` }),
    code: S.INVALID_ARGUMENT,
    mentions: "topic",
  },
  // publish limits
  { name: "Publish of 0 messages → INVALID_ARGUMENT", run: () => publish(), code: S.INVALID_ARGUMENT, mentions: "message_count" },
  {
    name: "Publish of 1001 messages → INVALID_ARGUMENT",
    run: () => publish(...Array.from({ length: 1001 }, () => ({ data: data() }))),
    code: S.INVALID_ARGUMENT,
    mentions: "1000",
  },
  { name: "Publish of an empty message → INVALID_ARGUMENT", run: () => publish({}), code: S.INVALID_ARGUMENT, mentions: "empty" },
  {
    name: "Publish with 101 attributes → INVALID_ARGUMENT",
    run: () => publish({ attributes: attrs(101) }),
    code: S.INVALID_ARGUMENT,
    mentions: "100",
  },
  {
    name: "Publish with a 257-byte attribute key → INVALID_ARGUMENT",
    run: () => publish({ attributes: { ["k".repeat(257)]: "v" } }),
    code: S.INVALID_ARGUMENT,
    mentions: "256",
  },
  {
    name: "Publish with a 1025-byte attribute value → INVALID_ARGUMENT",
    run: () => publish({ attributes: { k: "v".repeat(1025) } }),
    code: S.INVALID_ARGUMENT,
    mentions: "1024",
  },
  {
    name: "Publish with a 513×'é' (1026-byte) attribute value → INVALID_ARGUMENT",
    run: () => publish({ attributes: { k: "é".repeat(513) } }),
    code: S.INVALID_ARGUMENT,
    mentions: "1024",
  },
  {
    name: "Publish with a 1025-byte ordering key → INVALID_ARGUMENT",
    run: () => publish({ data: data(), orderingKey: "o".repeat(1025) }),
    code: S.INVALID_ARGUMENT,
    mentions: "ordering_key",
  },
  {
    name: "Publish with mixed ordering keys → FAILED_PRECONDITION",
    run: () => publish({ data: data(), orderingKey: "a" }, { data: data(), orderingKey: "b" }),
    code: S.FAILED_PRECONDITION,
    mentions: "ordering key",
  },
  {
    name: "Publish of 10 MB + 1 byte → INVALID_ARGUMENT, not the transport's RESOURCE_EXHAUSTED",
    run: () => publish({ data: Buffer.alloc(10_000_001) }),
    code: S.INVALID_ARGUMENT,
    mentions: "10000000",
  },
  {
    name: "Publish whose serialized request exceeds 10,000,000 bytes (data exactly 10,000,000) → INVALID_ARGUMENT",
    run: () => publish({ data: Buffer.alloc(10_000_000) }),
    code: S.INVALID_ARGUMENT,
    mentions: "request_size",
  },
  // NOT_FOUND / ALREADY_EXISTS / FAILED_PRECONDITION
  { name: "Publish to a missing topic → NOT_FOUND", run: () => pub("Publish", { topic: topicPath("missing-pub"), messages: [{ data: data() }] }), code: S.NOT_FOUND, mentions: "missing-pub" },
  { name: "GetTopic of a missing topic → NOT_FOUND", run: () => pub("GetTopic", { topic: topicPath("missing-get") }), code: S.NOT_FOUND, mentions: "missing-get" },
  { name: "DeleteTopic of a missing topic → NOT_FOUND", run: () => pub("DeleteTopic", { topic: topicPath("missing-del") }), code: S.NOT_FOUND, mentions: "missing-del" },
  { name: "GetSubscription of a missing subscription → NOT_FOUND", run: () => subr("GetSubscription", { subscription: subPath("missing-gs") }), code: S.NOT_FOUND, mentions: "missing-gs" },
  {
    name: "CreateSubscription on a missing topic → NOT_FOUND",
    run: () => subr("CreateSubscription", { name: subPath(), topic: topicPath("missing-cs") }),
    code: S.NOT_FOUND,
    mentions: "missing-cs",
  },
  {
    name: "CreateSubscription with a missing dead-letter topic → NOT_FOUND",
    run: () => createSub({ deadLetterPolicy: { deadLetterTopic: topicPath("missing-dlq"), maxDeliveryAttempts: 5 } }),
    code: S.NOT_FOUND,
    mentions: "missing-dlq",
  },
  { name: "Pull on a missing subscription → NOT_FOUND", run: () => subr("Pull", { subscription: subPath("missing-pull"), maxMessages: 1 }), code: S.NOT_FOUND, mentions: "missing-pull" },
  { name: "CreateTopic of an existing topic → ALREADY_EXISTS", run: () => pub("CreateTopic", { name: topic }), code: S.ALREADY_EXISTS, mentions: () => topic },
  { name: "CreateSubscription of an existing name → ALREADY_EXISTS", run: () => subr("CreateSubscription", { name: sub, topic }), code: S.ALREADY_EXISTS, mentions: () => sub },
  {
    name: "Pull on a detached subscription → FAILED_PRECONDITION",
    run: () => subr("Pull", { subscription: detached, maxMessages: 1, returnImmediately: true }),
    code: S.FAILED_PRECONDITION,
    mentions: "detached",
  },
  {
    name: "StreamingPull on a detached subscription → FAILED_PRECONDITION",
    run: () => streamRow([{ subscription: detached, streamAckDeadlineSeconds: 10 }]),
    code: S.FAILED_PRECONDITION,
    mentions: "detached",
  },
  // update masks
  {
    name: "UpdateTopic with an empty mask → INVALID_ARGUMENT",
    run: () => pub("UpdateTopic", { topic: { name: topic, labels: { a: "b" } }, updateMask: { paths: [] } }),
    code: S.INVALID_ARGUMENT,
    mentions: "update_mask",
  },
  {
    name: "UpdateTopic with an unknown path → INVALID_ARGUMENT",
    run: () => pub("UpdateTopic", { topic: { name: topic }, updateMask: { paths: ["no_such_field"] } }),
    code: S.INVALID_ARGUMENT,
    mentions: "no_such_field",
  },
  {
    name: "UpdateSubscription with an empty mask → INVALID_ARGUMENT",
    run: () => subr("UpdateSubscription", { subscription: { name: sub, ackDeadlineSeconds: 20 }, updateMask: { paths: [] } }),
    code: S.INVALID_ARGUMENT,
    mentions: "update_mask",
  },
  ...["enable_message_ordering", "filter", "name"].map((path) => ({
    name: `UpdateSubscription of immutable ${path} → INVALID_ARGUMENT`,
    run: () =>
      subr("UpdateSubscription", {
        subscription: { name: sub, topic, enableMessageOrdering: true, filter: "attributes:x" },
        updateMask: { paths: [path] },
      }),
    code: S.INVALID_ARGUMENT,
    mentions: path,
  })),
  // ack deadlines and pull
  ...[9, 601].map((n) => ({
    name: `CreateSubscription with ack deadline ${n} → INVALID_ARGUMENT`,
    run: () => createSub({ ackDeadlineSeconds: n }),
    code: S.INVALID_ARGUMENT,
    mentions: "ack_deadline_seconds",
  })),
  ...[601, -1].map((n) => ({
    name: `ModifyAckDeadline ${n} → INVALID_ARGUMENT`,
    run: () => subr("ModifyAckDeadline", { subscription: sub, ackIds: ["some-ack-id"], ackDeadlineSeconds: n }),
    code: S.INVALID_ARGUMENT,
    mentions: "ack_deadline_seconds",
  })),
  {
    name: "Acknowledge with no ack ids → INVALID_ARGUMENT",
    run: () => subr("Acknowledge", { subscription: sub, ackIds: [] }),
    code: S.INVALID_ARGUMENT,
    mentions: "ack_ids",
  },
  {
    name: "Pull with max_messages 0 → INVALID_ARGUMENT",
    run: () => subr("Pull", { subscription: sub, maxMessages: 0, returnImmediately: true }),
    code: S.INVALID_ARGUMENT,
    mentions: "max_messages",
  },
  {
    name: "StreamingPull first request without subscription → INVALID_ARGUMENT",
    run: () => streamRow([{ streamAckDeadlineSeconds: 10 }]),
    code: S.INVALID_ARGUMENT,
    mentions: "subscription",
  },
  {
    name: "StreamingPull with stream_ack_deadline_seconds 5 → INVALID_ARGUMENT",
    run: () => streamRow([{ subscription: sub, streamAckDeadlineSeconds: 5 }]),
    code: S.INVALID_ARGUMENT,
    mentions: "stream_ack_deadline_seconds",
  },
  {
    name: "StreamingPull with stream_ack_deadline_seconds 601 → INVALID_ARGUMENT",
    run: () => streamRow([{ subscription: sub, streamAckDeadlineSeconds: 601 }]),
    code: S.INVALID_ARGUMENT,
    mentions: "stream_ack_deadline_seconds",
  },
  {
    name: "StreamingPull on a missing subscription → NOT_FOUND",
    run: () => streamRow([{ subscription: subPath("missing-sp"), streamAckDeadlineSeconds: 10 }]),
    code: S.NOT_FOUND,
    mentions: "missing-sp",
  },
  // subscription settings
  {
    name: "CreateSubscription with 1 min retention → INVALID_ARGUMENT",
    run: () => createSub({ messageRetentionDuration: { seconds: 60 } }),
    code: S.INVALID_ARGUMENT,
    mentions: "message_retention_duration",
  },
  {
    name: "CreateSubscription with a 1 h expiration ttl → INVALID_ARGUMENT",
    run: () => createSub({ expirationPolicy: { ttl: { seconds: 3600 } } }),
    code: S.INVALID_ARGUMENT,
    mentions: "expiration_policy",
  },
  {
    name: "CreateSubscription with max_delivery_attempts 4 → INVALID_ARGUMENT",
    run: () => createSub({ deadLetterPolicy: { deadLetterTopic: topic, maxDeliveryAttempts: 4 } }),
    code: S.INVALID_ARGUMENT,
    mentions: "max_delivery_attempts",
  },
  {
    name: "CreateSubscription with minimum_backoff 601 s → INVALID_ARGUMENT",
    run: () => createSub({ retryPolicy: { minimumBackoff: { seconds: 601 } } }),
    code: S.INVALID_ARGUMENT,
    mentions: "minimum_backoff",
  },
  {
    name: "CreateSubscription with a 300-byte filter → INVALID_ARGUMENT",
    run: () => createSub({ filter: `attributes.k = "${"x".repeat(280)}"` }),
    code: S.INVALID_ARGUMENT,
    mentions: "filter",
  },
  // listing
  {
    name: "ListTopics with a garbage page_token → INVALID_ARGUMENT",
    run: () => pub("ListTopics", { project: `projects/${PROJECT}`, pageSize: 1, pageToken: "garbage" }),
    code: S.INVALID_ARGUMENT,
    mentions: "page_token",
  },
  {
    name: "ListTopics with page_size -1 → INVALID_ARGUMENT",
    run: () => pub("ListTopics", { project: `projects/${PROJECT}`, pageSize: -1 }),
    code: S.INVALID_ARGUMENT,
    mentions: "page_size",
  },
];

/** A StreamingPull row: the status it ends with, as a rejected promise like unary calls. */
async function streamRow(requests: Obj[]): Promise<void> {
  const s = await streamStatus(c.subscriber, requests);
  if (s.code !== S.OK) throw Object.assign(new Error(s.details), s);
}

describe("status codes through a raw grpc client", () => {
  for (const row of rows) {
    test(row.name, async () => {
      const s = await statusOf(row.run());
      expect(S[s.code]).toBe(S[row.code]);
      const mentions = typeof row.mentions === "function" ? row.mentions() : row.mentions;
      expect(s.details).toContain(mentions);
    });
  }

  test("a valid publish succeeds (the rows are not failing for a shared reason)", async () => {
    const res = await publish({ data: data("ok"), attributes: { k: "é".repeat(512) } });
    expect(res.messageIds.length).toBe(1);
  });
});

const GARBAGE = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02, 0xff, 0xff]);

/** Sends raw bytes as the request body of a unary method; resolves with the error (null on success). */
function rawUnary(path: string, body: Buffer): Promise<grpc.ServiceError | null> {
  const raw = new grpc.Client(emu.endpoint, grpc.credentials.createInsecure());
  return new Promise<grpc.ServiceError | null>((resolve) =>
    raw.makeUnaryRequest(path, (b: Buffer) => b, (b: Buffer) => b, body, { deadline: Date.now() + CALL_TIMEOUT_MS }, (err) => {
      raw.close();
      resolve(err);
    }),
  );
}

describe("malformed requests", () => {
  test.each([
    "/google.pubsub.v1.Publisher/Publish",
    "/google.pubsub.v1.Publisher/CreateTopic",
    "/google.pubsub.v1.Subscriber/Acknowledge",
    "/google.pubsub.v1.Subscriber/Pull",
  ])("garbage protobuf bytes to %s give INVALID_ARGUMENT and the server keeps serving", async (path) => {
    const err = await rawUnary(path, GARBAGE);
    expect(err).not.toBeNull();
    expect(S[err!.code]).toBe(S[S.INVALID_ARGUMENT]);
    const got = await pub("GetTopic", { topic });
    expect(got.name).toBe(topic);
  });

  test("garbage bytes on a StreamingPull end that stream with INVALID_ARGUMENT and the server keeps serving", async () => {
    const raw = new grpc.Client(emu.endpoint, grpc.credentials.createInsecure());
    const code = await new Promise<number>((resolve) => {
      const call = raw.makeBidiStreamRequest(
        "/google.pubsub.v1.Subscriber/StreamingPull",
        (b: Buffer) => b,
        (b: Buffer) => b,
        { deadline: Date.now() + 5000 },
      );
      call.on("data", () => {});
      call.on("error", (e: grpc.ServiceError) => resolve(e.code));
      call.on("status", (s: grpc.StatusObject) => resolve(s.code));
      call.write(GARBAGE);
    });
    raw.close();
    expect(S[code]).toBe(S[S.INVALID_ARGUMENT]);
    const res = await publish({ data: data("still-up") });
    expect(res.messageIds.length).toBe(1);
  });
});

/**
 * The shape of a status row and the builders the row families share. A row is data: service,
 * method, request, expected code, the words the message must contain, and the google.rpc details
 * the error must carry on every transport. status.test.ts runs every row over gRPC and over REST.
 */
import { PARENT, schemaPath, snapPath, subPath, topicPath } from "../../helpers/project.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = Record<string, any>;

/** The resources the rows share, made by fixtures.ts through the transport under test. */
export interface Fixtures {
  topic: string;
  /** A subscription on `topic`, and `snapshot` taken of it. */
  sub: string;
  snapshot: string;
  /** A detached subscription on `topic`. */
  detached: string;
  /** A subscription on another topic. */
  otherSub: string;
  /** An exactly-once subscription on `topic`. */
  eodSub: string;
  /** A push subscription on `topic`. */
  pushSub: string;
  /** A BigQuery and a Bigtable subscription on `topic` (their destinations need not exist). */
  bqSub: string;
  btSub: string;
  /** A Cloud Storage subscription on `topic` (its bucket need not exist). */
  gcsSub: string;
  /** An AVRO schema, its only revision, and a topic bound to it with JSON encoding. */
  schema: string;
  schemaRevision: string;
  schemaTopic: string;
  /** The etag `topic`'s IAM policy had before a write replaced it. */
  staleEtag: Buffer;
}

export type Code = "INVALID_ARGUMENT" | "NOT_FOUND" | "ALREADY_EXISTS" | "FAILED_PRECONDITION" | "ABORTED";
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
  /** The error carries this google.rpc.ErrorInfo, on every transport. */
  errorInfo?: { reason: string; domain: string; metadata: Record<string, string> };
  /** Why a unary row has no REST form. */
  grpcOnly?: string;
  /** Where REST's front end answers before the service does. */
  rest?: { code: Code; mentions: Mentions };
}

export { PARENT, schemaPath, snapPath, subPath, topicPath };
export const data = (s = "x") => Buffer.from(s);

type Request = (f: Fixtures) => Obj;
export const pub = (method: string, request: Request): StatusRow["call"] => ["Publisher", method, request];
export const subr = (method: string, request: Request): StatusRow["call"] => ["Subscriber", method, request];
export const schemas = (method: string, request: Request): StatusRow["call"] => ["SchemaService", method, request];
export const iam = (method: string, request: Request): StatusRow["call"] => ["IAMPolicy", method, request];

export const publish = (...messages: Obj[]) => pub("Publish", (f) => ({ topic: f.topic, messages }));
export const createSub = (extra: Obj | Request) =>
  subr("CreateSubscription", (f) => ({ name: subPath(), topic: f.topic, ...(typeof extra === "function" ? extra(f) : extra) }));

/** A unary call refused with `code`, its message naming `mentions`; its test is named "`what` → `code`". */
export const refusal = (what: string, call: StatusRow["call"], code: Code, mentions: Mentions, extra: Partial<StatusRow> = {}): StatusRow => ({
  name: `${what} → ${code}`,
  call,
  code,
  mentions,
  ...extra,
});

/** A one-field record schema: `{}` does not conform to it. */
export const AVRO = JSON.stringify({ type: "record", name: "R", fields: [{ name: "a", type: "string" }] });

/** CreateSubscription with `extra` on the shared topic, refused as INVALID_ARGUMENT naming `mentions`. */
export const invalidCreate = (name: string, extra: Obj, mentions: string): StatusRow => ({
  name: `CreateSubscription with ${name} → INVALID_ARGUMENT`,
  call: createSub(extra),
  code: "INVALID_ARGUMENT",
  mentions,
});

/** UpdateSubscription of `mask` with the subscription `subscription(f)` builds, refused as INVALID_ARGUMENT. */
export const invalidUpdate = (name: string, mask: string[], subscription: Request, mentions: string): StatusRow => ({
  name: `UpdateSubscription ${name} → INVALID_ARGUMENT`,
  call: subr("UpdateSubscription", (f) => ({ subscription: subscription(f), updateMask: { paths: mask } })),
  code: "INVALID_ARGUMENT",
  mentions,
});

/** Pull (`stream`: StreamingPull) on a subscription that delivers elsewhere → FAILED_PRECONDITION naming its kind. */
export const pullRefused = (kind: string, sub: (f: Fixtures) => string, stream = false): StatusRow => ({
  name: `${stream ? "StreamingPull" : "Pull"} on a ${kind} subscription → FAILED_PRECONDITION`,
  ...(stream
    ? { stream: (f: Fixtures) => [{ subscription: sub(f), streamAckDeadlineSeconds: 10 }] }
    : { call: subr("Pull", (f) => ({ subscription: sub(f), maxMessages: 1 })) }),
  code: "FAILED_PRECONDITION",
  mentions: `${kind} subscriptions`,
});

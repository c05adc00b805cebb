import { beforeAll } from "bun:test";
import { internalErrorCount } from "../../src/runtime/internal-errors.ts";
/**
 * Seeded generators for the fuzz suites: a PRNG, hostile strings, valid request templates per
 * RPC, and mutations of encoded bodies. Same seed, same requests: a failure names its seed.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

/** mulberry32: small, fast, and good enough to pick test cases. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(xs: readonly T[]): T => xs[int(xs.length)],
    bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => int(256))),
  };
}
export type Rng = ReturnType<typeof rng>;

/** Replaced after encoding by bytes that are not UTF-8 (see withBytes). */
export const BAD_UTF8_MARKER = "~~BAD~~";
export const BAD_UTF8 = [0x61, 0xed, 0xa0, 0x80, 0xff, 0xc0, 0x62];

export const HOSTILE_STRINGS: readonly string[] = [
  "__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__defineGetter__", "valueOf", "then",
  "", " ", "\u0000", "\u0000".repeat(64), "\u0001\u001f\u007f", "a\r\nb", "\t", "\uFFFD", "\u{1F600}".repeat(500),
  "%s%n%x%d", "../../../etc/passwd", "${7*7}", "<script>", "'\"\\", "-1", "NaN", "1e309",
  "a".repeat(70_000), "é".repeat(40_000), "\u{10FFFF}".repeat(100),
  "projects/__proto__/topics/constructor", `projects/p/topics/${"a".repeat(300)}`, "projects/p/topics/goog-x",
  "projects//topics/", "projects/p/topics/a/b", `projects/${"p".repeat(70_000)}/topics/abc`,
  "labels.__proto__.polluted", "constructor.prototype.polluted", "a.".repeat(5000) + "b",
  'attributes.a = "\\q"', 'attributes.a = "\u0000"', "attributes:__proto__", "hasPrefix(", "((((((((((", "NOT NOT NOT -",
  BAD_UTF8_MARKER, `projects/p/topics/${BAD_UTF8_MARKER}`,
];

const SHORT = HOSTILE_STRINGS.filter((s) => s.length < 200);
const AVRO = JSON.stringify({ type: "record", name: "R", fields: [{ name: "a", type: "string" }] });

/** A valid request for each RPC, on the given resources (others get `{}`). */
export function templates(topic: string, sub: string, fresh: () => string): Record<string, () => Obj> {
  const project = topic.split("/topics/")[0];
  const subscription = (name: string) => ({
    name,
    topic,
    ackDeadlineSeconds: 20,
    labels: { env: "fuzz" },
    filter: 'attributes.a = "b"',
    pushConfig: { pushEndpoint: "https://example.com/push", attributes: { "x-goog-version": "v1" } },
    retryPolicy: { minimumBackoff: { seconds: 10 }, maximumBackoff: { seconds: 60 } },
    expirationPolicy: { ttl: { seconds: 86400 * 2 } },
    messageRetentionDuration: { seconds: 3600 },
  });
  return {
    CreateTopic: () => ({ name: `${project}/topics/${fresh()}`, labels: { env: "fuzz" }, messageRetentionDuration: { seconds: 3600 } }),
    UpdateTopic: () => ({ topic: { name: topic, labels: { a: "b" } }, updateMask: { paths: ["labels"] } }),
    Publish: () => ({ topic, messages: [{ data: Buffer.from("fuzz"), attributes: { a: "b", c: "d" }, orderingKey: "k" }] }),
    GetTopic: () => ({ topic }),
    ListTopics: () => ({ project, pageSize: 5, pageToken: "" }),
    ListTopicSubscriptions: () => ({ topic, pageSize: 5 }),
    ListTopicSnapshots: () => ({ topic }),
    DeleteTopic: () => ({ topic: `${project}/topics/${fresh()}` }),
    DetachSubscription: () => ({ subscription: `${project}/subscriptions/${fresh()}` }),
    CreateSubscription: () => subscription(`${project}/subscriptions/${fresh()}`),
    GetSubscription: () => ({ subscription: sub }),
    UpdateSubscription: () => ({ subscription: { ...subscription(sub), ackDeadlineSeconds: 30 }, updateMask: { paths: ["ack_deadline_seconds", "labels", "retry_policy"] } }),
    ListSubscriptions: () => ({ project, pageSize: 5 }),
    DeleteSubscription: () => ({ subscription: `${project}/subscriptions/${fresh()}` }),
    ModifyAckDeadline: () => ({ subscription: sub, ackIds: ["1", "zz"], ackDeadlineSeconds: 30 }),
    Acknowledge: () => ({ subscription: sub, ackIds: ["1", "2"] }),
    Pull: () => ({ subscription: sub, maxMessages: 5, returnImmediately: true }),
    StreamingPull: () => ({ subscription: sub, streamAckDeadlineSeconds: 10, maxOutstandingMessages: 10, clientId: "fuzz" }),
    ModifyPushConfig: () => ({ subscription: sub, pushConfig: { pushEndpoint: "https://example.com/push" } }),
    GetSnapshot: () => ({ snapshot: `${project}/snapshots/s` }),
    ListSnapshots: () => ({ project, pageSize: 5 }),
    CreateSnapshot: () => ({ name: `${project}/snapshots/${fresh()}`, subscription: sub }),
    UpdateSnapshot: () => ({ snapshot: { name: `${project}/snapshots/s` }, updateMask: { paths: ["labels"] } }),
    DeleteSnapshot: () => ({ snapshot: `${project}/snapshots/s` }),
    Seek: () => ({ subscription: sub, time: { seconds: 1 } }),
    CreateSchema: () => ({ parent: project, schemaId: fresh(), schema: { type: "AVRO", definition: AVRO } }),
    GetSchema: () => ({ name: `${project}/schemas/s`, view: "FULL" }),
    ListSchemas: () => ({ parent: project, pageSize: 5 }),
    ListSchemaRevisions: () => ({ name: `${project}/schemas/s`, pageSize: 5 }),
    CommitSchema: () => ({ name: `${project}/schemas/s`, schema: { name: `${project}/schemas/s`, type: "AVRO", definition: AVRO } }),
    RollbackSchema: () => ({ name: `${project}/schemas/s`, revisionId: "abc" }),
    DeleteSchemaRevision: () => ({ name: `${project}/schemas/s@abc` }),
    DeleteSchema: () => ({ name: `${project}/schemas/${fresh()}` }),
    ValidateSchema: () => ({ parent: project, schema: { type: "AVRO", definition: AVRO } }),
    ValidateMessage: () => ({ parent: project, schema: { type: "AVRO", definition: AVRO }, message: Buffer.from('{"a":"b"}'), encoding: "JSON" }),
    SetIamPolicy: () => ({ resource: topic, policy: { bindings: [{ role: "roles/pubsub.viewer", members: ["allUsers"] }] } }),
    GetIamPolicy: () => ({ resource: sub }),
    TestIamPermissions: () => ({ resource: topic, permissions: ["pubsub.topics.get"] }),
  };
}

/** Replaces one string leaf, map key or list of `o` (in place) with something hostile. */
export function poison(r: Rng, o: Obj): void {
  const slots: { parent: Obj; key: string }[] = [];
  const walk = (x: Obj, depth: number) => {
    for (const k of Object.keys(x)) {
      const v = x[k];
      if (typeof v === "string" || typeof v === "number" || Array.isArray(v)) slots.push({ parent: x, key: k });
      if (v && typeof v === "object" && !Buffer.isBuffer(v) && depth < 5) {
        slots.push({ parent: x, key: k });
        walk(v, depth + 1);
      }
    }
  };
  walk(o, 0);
  if (slots.length === 0) return;
  const { parent, key } = r.pick(slots);
  const v = parent[key];
  const s = r.pick(HOSTILE_STRINGS);
  switch (r.int(4)) {
    case 0: // a hostile key next to the others (maps), or as a field name protobufjs ignores
      if (v && typeof v === "object" && !Array.isArray(v) && !Buffer.isBuffer(v)) Object.defineProperty(v, s, { value: r.pick(HOSTILE_STRINGS), enumerable: true });
      else parent[key] = s;
      break;
    case 1: // many of them
      parent[key] = Array.isArray(v) ? Array.from({ length: 1 + r.int(3000) }, () => r.pick(SHORT)) : s;
      break;
    case 2: // numbers at the edges
      parent[key] = typeof v === "number" ? r.pick([-1, 0, 2 ** 31 - 1, -(2 ** 31), 1e15, 601, 9]) : s;
      break;
    default:
      parent[key] = s;
  }
}

/** Sets one string leaf of `o` (in place) to the invalid-UTF-8 marker; false if it has none. */
export function markOneString(r: Rng, o: Obj): boolean {
  const slots: { parent: Obj; key: string }[] = [];
  const walk = (x: Obj, depth: number) => {
    for (const k of Object.keys(x)) {
      const v = x[k];
      if (typeof v === "string") slots.push({ parent: x, key: k });
      else if (v && typeof v === "object" && !Buffer.isBuffer(v) && depth < 5) walk(v, depth + 1);
    }
  };
  walk(o, 0);
  if (slots.length === 0) return false;
  const { parent, key } = r.pick(slots);
  parent[key] = Array.isArray(parent) ? BAD_UTF8_MARKER : r.int(4) === 0 ? `x${BAD_UTF8_MARKER}x` : BAD_UTF8_MARKER;
  return true;
}

/** Truncates, flips, inserts or deletes bytes of an encoded body. */
export function mutate(r: Rng, body: Buffer): Buffer {
  const b = Buffer.from(body);
  switch (r.int(5)) {
    case 0:
      return b.subarray(0, r.int(b.length + 1));
    case 1:
      for (let i = 0, n = 1 + r.int(4); i < n && b.length; i++) b[r.int(b.length)] = r.int(256);
      return b;
    case 2: {
      const at = r.int(b.length + 1);
      return Buffer.concat([b.subarray(0, at), r.bytes(1 + r.int(16)), b.subarray(at)]);
    }
    case 3: {
      const at = r.int(b.length + 1);
      return Buffer.concat([b.subarray(0, at), b.subarray(at + 1 + r.int(8))]);
    }
    default: // a huge length prefix or a varint that never ends
      return Buffer.concat([b, Buffer.from(r.pick([[0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f], [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], [0x0b], [0x0f, 0x01]]))]);
  }
}

/**
 * Internal errors counted since the enclosing describe began (other test files in this process may
 * have counted theirs): call the result with a total (default: this process's count).
 */
export function internalErrorsSinceStart(): (total?: number) => number {
  let before = 0;
  beforeAll(() => {
    before = internalErrorCount();
  });
  return (total = internalErrorCount()) => total - before;
}

/** FUZZ_SEED, or this suite's own seed: a failure prints the seed that found it. */
export const fuzzSeed = (fallback: number) => Number(process.env.FUZZ_SEED ?? fallback);
/** FUZZ_CASES: cases per RPC (120 unless told). */
export const FUZZ_CASES = Number(process.env.FUZZ_CASES ?? 120);

/** The gRPC fuzz suites' bounds: a unary call is answered within CALL_MS (a stream still open at STREAM_MS is fine). */
export const CALL_MS = 5000;
export const STREAM_MS = 300;
/** Calls in flight at once, and the most bytes of details an error may carry. */
export const PARALLEL_CALLS = 24;
export const MAX_DETAILS = 2048;

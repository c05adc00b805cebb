/** The proto3 JSON mapping of every field type the served protos use, both ways. */
import { describe, expect, test } from "bun:test";
import { PubSubError } from "../../src/core/errors.ts";
import { decodeBase64, messageFromJson, messageToJson } from "../../src/proto/json.ts";

const P = "google.pubsub.v1.";

/** The INVALID_ARGUMENT a mapping throws, with its message and BadRequest field. */
function refusal(fn: () => unknown): { message: string; field?: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PubSubError);
    const err = e as PubSubError;
    expect(err.code).toBe("INVALID_ARGUMENT");
    const bad = err.details.find((d) => d.kind === "BadRequest");
    return { message: err.message, field: bad?.kind === "BadRequest" ? bad.fieldViolations[0].field : undefined };
  }
  throw new Error("expected the mapping to refuse the input");
}

describe("JSON → request (proto-loader shapes)", () => {
  test("strings, int32, bool, nested messages, lowerCamelCase and snake_case names", () => {
    const sub = messageFromJson(P + "Subscription", {
      name: "projects/p/subscriptions/s",
      ack_deadline_seconds: 20,
      retainAckedMessages: true,
      dead_letter_policy: { deadLetterTopic: "projects/p/topics/d", max_delivery_attempts: "7" },
    });
    expect(sub).toEqual({
      name: "projects/p/subscriptions/s",
      ackDeadlineSeconds: 20,
      retainAckedMessages: true,
      deadLetterPolicy: { deadLetterTopic: "projects/p/topics/d", maxDeliveryAttempts: 7 },
    });
  });

  test("defaults of fields without presence are dropped, as the binary encoding drops them; messages keep presence", () => {
    const sub = messageFromJson(P + "Subscription", { name: "", ackDeadlineSeconds: 0, retainAckedMessages: false, expirationPolicy: {}, labels: {} });
    expect(sub).toEqual({ expirationPolicy: {} });
  });

  test("null means unset", () => {
    expect(messageFromJson(P + "Subscription", { pushConfig: null, filter: null, labels: null })).toEqual({});
  });

  test("bytes: standard and URL-safe base64, padded or not", () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x01]);
    for (const s of ["+//+AQ==", "-__-AQ==", "-__-AQ", "+//+AQ"]) {
      const m = messageFromJson(P + "PubsubMessage", { data: s });
      expect(Buffer.from(m.data)).toEqual(bytes);
    }
  });

  test("bytes that are not base64 are refused naming the field", () => {
    for (const bad of ["a", "ab$c", "abc==x", 12]) {
      const r = refusal(() => messageFromJson(P + "PublishRequest", { messages: [{ data: bad }] }));
      expect(r.field).toBe("messages[0].data");
      expect(r.message).toContain("TYPE_BYTES");
    }
    expect(decodeBase64("abc")).toEqual(Buffer.from("abc", "base64"));
  });

  test("int64 as a string or a number; int32 range and integrality checked", () => {
    expect(messageFromJson("google.protobuf.Duration", { seconds: "12", nanos: 5 })).toEqual({ seconds: 12, nanos: 5 });
    expect(messageFromJson(P + "RetryPolicy", {})).toEqual({});
    for (const bad of [1.5, "ten", 2 ** 31, true]) {
      expect(refusal(() => messageFromJson(P + "PullRequest", { maxMessages: bad })).field).toBe("max_messages");
    }
  });

  test("bool must be a JSON boolean", () => {
    expect(refusal(() => messageFromJson(P + "PullRequest", { returnImmediately: "yes" })).message).toContain("TYPE_BOOL");
  });

  test("enums by name or by number; an unknown name is refused", () => {
    expect(messageFromJson(P + "ListSchemasRequest", { view: "FULL" })).toEqual({ view: "FULL" });
    expect(messageFromJson(P + "ListSchemasRequest", { view: 2 })).toEqual({ view: "FULL" });
    expect(messageFromJson(P + "ListSchemasRequest", { view: "SCHEMA_VIEW_UNSPECIFIED" })).toEqual({});
    expect(refusal(() => messageFromJson(P + "ListSchemasRequest", { view: "HUGE" })).field).toBe("view");
  });

  test("Duration: seconds with up to 9 fractional digits", () => {
    const d = (s: unknown) => messageFromJson(P + "Topic", { messageRetentionDuration: s }).messageRetentionDuration;
    expect(d("600s")).toEqual({ seconds: 600, nanos: 0 });
    expect(d("1.5s")).toEqual({ seconds: 1, nanos: 500_000_000 });
    expect(d("0.000000001s")).toEqual({ seconds: 0, nanos: 1 });
    expect(d("-1.5s")).toEqual({ seconds: -1, nanos: -500_000_000 });
    for (const bad of ["600", "1m", 600, "1.1234567890s", { seconds: 1 }]) {
      expect(refusal(() => d(bad)).field).toBe("message_retention_duration");
    }
  });

  test("Timestamp: RFC 3339 with Z or an offset, up to nanoseconds", () => {
    const t = (s: unknown) => messageFromJson(P + "SeekRequest", { time: s }).time;
    expect(t("1970-01-01T00:00:01Z")).toEqual({ seconds: 1, nanos: 0 });
    expect(t("2024-02-29T12:00:00.123456789Z")).toEqual({ seconds: 1709208000, nanos: 123456789 });
    expect(t("2024-02-29T13:30:00+01:30")).toEqual({ seconds: 1709208000, nanos: 0 });
    expect(t("0001-01-01T00:00:00Z")).toEqual({ seconds: -62135596800, nanos: 0 });
    for (const bad of ["2023-02-29T00:00:00Z", "2024-01-01 00:00:00", "yesterday", 0]) expect(refusal(() => t(bad)).field).toBe("time");
  });

  test("FieldMask: comma-separated lowerCamelCase (or snake_case) paths become snake_case paths", () => {
    const m = messageFromJson(P + "UpdateSubscriptionRequest", { updateMask: "ackDeadlineSeconds,retryPolicy.minimumBackoff,labels" });
    expect(m.updateMask).toEqual({ paths: ["ack_deadline_seconds", "retry_policy.minimum_backoff", "labels"] });
    expect(messageFromJson(P + "UpdateTopicRequest", { update_mask: "message_retention_duration" }).updateMask).toEqual({
      paths: ["message_retention_duration"],
    });
    expect(refusal(() => messageFromJson(P + "UpdateTopicRequest", { updateMask: ["labels"] })).field).toBe("update_mask");
  });

  test("maps: client keys such as __proto__ and constructor stay data", () => {
    const json = JSON.parse('{"attributes": {"__proto__": "a", "constructor": "b", "k": "v"}}');
    const m = messageFromJson(P + "PubsubMessage", json);
    expect(Object.getPrototypeOf(m.attributes)).toBeNull();
    expect(Object.keys(m.attributes)).toEqual(["__proto__", "constructor", "k"]);
    expect(m.attributes.__proto__).toBe("a");
    expect(({} as Record<string, unknown>).a).toBeUndefined();
    const back = JSON.stringify(messageToJson(P + "PubsubMessage", m));
    expect(JSON.parse(back).attributes).toEqual(json.attributes);
    expect(refusal(() => messageFromJson(P + "PubsubMessage", { attributes: { k: 1 } })).field).toBe('attributes["k"]');
  });

  test("repeated fields take lists, element errors name their index", () => {
    expect(messageFromJson(P + "AcknowledgeRequest", { ackIds: ["a", "b"] })).toEqual({ ackIds: ["a", "b"] });
    expect(messageFromJson(P + "AcknowledgeRequest", { ackIds: [] })).toEqual({});
    expect(refusal(() => messageFromJson(P + "AcknowledgeRequest", { ackIds: "a" })).field).toBe("ack_ids");
    expect(refusal(() => messageFromJson(P + "AcknowledgeRequest", { ackIds: ["a", 2] })).field).toBe("ack_ids[1]");
  });

  test("oneofs: one member sets the oneof's name, two members are refused", () => {
    expect(messageFromJson(P + "SeekRequest", { snapshot: "projects/p/snapshots/s" })).toEqual({ snapshot: "projects/p/snapshots/s", target: "snapshot" });
    const r = refusal(() => messageFromJson(P + "SeekRequest", { snapshot: "projects/p/snapshots/s", time: "2024-01-01T00:00:00Z" }));
    expect(r.message).toContain("target");
  });

  test("Struct and Value: any JSON", () => {
    const json = { a: 1, b: [true, null, "x"], c: { d: 2 } };
    const s = messageFromJson("google.protobuf.Value", {}, "", 0);
    expect(s).toEqual({});
    const m = messageFromJson(P + "AIInference.UnstructuredInference", { parameters: json });
    expect(m.parameters.fields.a).toEqual({ numberValue: 1 });
    expect(m.parameters.fields.b.listValue.values[1]).toEqual({ nullValue: "NULL_VALUE" });
    expect(messageToJson(P + "AIInference.UnstructuredInference", m).parameters).toEqual(json);
  });

  test("unknown fields are refused naming the field and where it sits", () => {
    const top = refusal(() => messageFromJson(P + "PublishRequest", { topic: "t", mesages: [] }));
    expect(top.message).toContain('Unknown name "mesages"');
    const deep = refusal(() => messageFromJson(P + "PublishRequest", { messages: [{ data: "", atributes: {} }] }));
    expect(deep.message).toContain("Unknown name \"atributes\" at 'messages[0]'");
    expect(deep.field).toBe("messages[0]");
  });

  test("a message must be a JSON object", () => {
    for (const bad of [[], "x", 3]) expect(refusal(() => messageFromJson(P + "PublishRequest", bad)).message).toContain("Expected an object");
    expect(refusal(() => messageFromJson(P + "Subscription", { pushConfig: "x" })).message).toContain("push_config");
  });

  test("deep nesting is refused, not a stack overflow", () => {
    let v: unknown = 1;
    for (let i = 0; i < 200; i++) v = { x: v };
    expect(refusal(() => messageFromJson(P + "AIInference.UnstructuredInference", { parameters: v })).message).toContain("parameters");
  });
});

describe("result → JSON", () => {
  test("int64 as strings, Durations as seconds, defaults left out, enums by name", () => {
    const json = messageToJson(P + "Subscription", {
      name: "projects/p/subscriptions/s",
      topic: "projects/p/topics/t",
      ackDeadlineSeconds: 10,
      retainAckedMessages: false,
      labels: {},
      messageRetentionDuration: { seconds: 600, nanos: 500_000_000 },
      expirationPolicy: {},
      filter: "",
      state: "ACTIVE",
      notAField: 1,
    });
    expect(json).toEqual({
      name: "projects/p/subscriptions/s",
      topic: "projects/p/topics/t",
      ackDeadlineSeconds: 10,
      messageRetentionDuration: "600.500s",
      expirationPolicy: {},
      state: "ACTIVE",
    });
    expect(messageToJson("google.protobuf.Duration", { seconds: 5, nanos: 1 })).toEqual({ seconds: "5", nanos: 1 });
  });

  test("enums as numbers when the client asks ($alt=json;enum-encoding=int)", () => {
    expect(messageToJson(P + "Subscription", { state: "RESOURCE_ERROR" }, { numericEnums: true })).toEqual({ state: 2 });
  });

  test("Timestamps use 0, 3, 6 or 9 fractional digits; FieldMasks go back to lowerCamelCase", () => {
    const t = (seconds: number, nanos: number) => messageToJson(P + "SeekRequest", { time: { seconds, nanos } }).time;
    expect(t(1, 0)).toBe("1970-01-01T00:00:01Z");
    expect(t(1, 5_000_000)).toBe("1970-01-01T00:00:01.005Z");
    expect(t(1, 5_000)).toBe("1970-01-01T00:00:01.000005Z");
    expect(t(1, 5)).toBe("1970-01-01T00:00:01.000000005Z");
    const mask = messageToJson(P + "UpdateTopicRequest", { updateMask: { paths: ["message_retention_duration", "labels"] } });
    expect(mask.updateMask).toBe("messageRetentionDuration,labels");
  });

  test("bytes as base64, including a view into a larger buffer", () => {
    const big = Buffer.from("xxhelloxx");
    expect(messageToJson(P + "PubsubMessage", { data: big.subarray(2, 7) }).data).toBe(Buffer.from("hello").toString("base64"));
  });
});

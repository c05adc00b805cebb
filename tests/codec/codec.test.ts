/** The hand-written codecs agree byte for byte in meaning with protobufjs on the same messages. */
import { describe, expect, test } from "bun:test";
import {
  decodeAcknowledgeRequest,
  decodeModifyAckDeadlineRequest,
  decodePublishRequest,
  decodeStreamingPullRequest,
  encodeDeliveryResponse,
  encodePublishResponse,
} from "../../src/grpc/codec/messages.ts";
import { checkDecoded, malformedSafe } from "../../src/grpc/malformed.ts";
import { services } from "../../src/grpc/proto.ts";
import type { StoredMessage } from "../../src/core/message.ts";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { NO_CONTEXT, createRpcTable } from "../../src/rpc/table.ts";

const pub = services.Publisher.Publish;
const pull = services.Subscriber.Pull;
const stream = services.Subscriber.StreamingPull;
const ack = services.Subscriber.Acknowledge;

describe("publish", () => {
  test("decodes what protobufjs encodes, data as views into the request", () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const buf = pub.requestSerialize({
      topic: "projects/p/topics/tópico",
      messages: [
        { data: all, attributes: { "ключ": "значение", a: "" }, orderingKey: "k1" },
        { attributes: { only: "attrs" } },
        { data: Buffer.from("x") },
      ],
    });
    const req = decodePublishRequest(buf);
    expect(req.topic).toBe("projects/p/topics/tópico");
    expect(req.requestBytes).toBe(buf.length);
    expect(Buffer.from(req.messages[0].data!).equals(all)).toBe(true);
    expect(req.messages[0].attributes).toEqual({ "ключ": "значение", a: "" });
    expect(req.messages[0].orderingKey).toBe("k1");
    expect(req.messages[1]).toEqual({ attributes: { only: "attrs" } });
    // Views into the request: the store copies out those it holds for long (tests/core/held-views.test.ts).
    expect(req.messages[2].data!.buffer).toBe(buf.buffer);
  });

  test("a held message's data are copied out of its request only if it is still held a second later", async () => {
    const clock = new ManualClock();
    const broker = new Broker({ clock });
    broker.held.keepViews(clock);
    const publish = createRpcTable(broker).unary.get("Publisher.Publish")!;
    broker.topics.create({ name: "projects/p/topics/none" } as never);
    broker.topics.create({ name: "projects/p/topics/held" } as never);
    broker.subscriptions.create({ name: "projects/p/subscriptions/sub", topic: "projects/p/topics/held" } as never);
    const request = (topic: string) =>
      decodePublishRequest(Buffer.from(pub.requestSerialize({ topic, messages: [{ data: Buffer.from("x") }, { data: Buffer.from("y") }] })));
    publish(request("projects/p/topics/none"), NO_CONTEXT);
    expect(broker.held.pinnedBytes).toBe(0); // nobody holds them: nothing is kept alive
    const held = request("projects/p/topics/held");
    const whole = held.messages[0].data!.buffer.byteLength;
    publish(held, NO_CONTEXT);
    // Both held, still views: the request less their 2 bytes counts against the memory budget.
    expect(broker.held.pinnedBytes).toBe(whole - 2);
    const [first] = await broker.subscriptions.pull("projects/p/subscriptions/sub", 1, true).result;
    expect(first!.message.data.buffer.byteLength).toBe(whole);
    broker.subscriptions.acknowledge("projects/p/subscriptions/sub", [first!.ackId]);
    expect(broker.held.pinnedBytes).toBe(whole - 1);
    clock.advance(999);
    expect(broker.held.pinnedBytes).toBe(whole - 1);
    clock.advance(1);
    expect(broker.held.pinnedBytes).toBe(0);
    const [second] = await broker.subscriptions.pull("projects/p/subscriptions/sub", 1, true).result;
    expect(Buffer.from(second!.message.data).toString()).toBe("y");
    expect(second!.message.data.buffer.byteLength).toBe(1);
    // All of a request acked before the second: let go at once, nothing copied.
    publish(request("projects/p/topics/held"), NO_CONTEXT);
    const both = await broker.subscriptions.pull("projects/p/subscriptions/sub", 10, true).result;
    broker.subscriptions.acknowledge("projects/p/subscriptions/sub", both.map((d) => d.ackId));
    expect(broker.held.pinnedBytes).toBe(0);
  });

  test("without a view clock a store copies held data out at once", async () => {
    const broker = new Broker({ clock: new ManualClock() });
    broker.topics.create({ name: "projects/p/topics/top" } as never);
    broker.subscriptions.create({ name: "projects/p/subscriptions/sub1", topic: "projects/p/topics/top" } as never);
    const req = decodePublishRequest(Buffer.from(pub.requestSerialize({ topic: "projects/p/topics/top", messages: [{ data: Buffer.from("x") }, { data: Buffer.from("y") }] })));
    createRpcTable(broker).unary.get("Publisher.Publish")!(req, NO_CONTEXT);
    const ds = await broker.subscriptions.pull("projects/p/subscriptions/sub1", 10, true).result;
    expect(ds.map((d) => d.message.data.buffer.byteLength)).toEqual([1, 1]);
    expect(broker.held.pinnedBytes).toBe(0);
  });

  test("data that is most of the request stays a slice of it (no copy of large messages)", () => {
    const big = Buffer.alloc(100_000, 1);
    const buf = Buffer.from(pub.requestSerialize({ topic: "projects/p/topics/top", messages: [{ data: big }] }));
    const req = decodePublishRequest(buf);
    expect(req.messages[0].data!.buffer).toBe(buf.buffer);
    expect(Buffer.from(req.messages[0].data!).equals(big)).toBe(true);
  });

  test("an attribute named __proto__ or constructor is data, not a prototype", () => {
    const buf = pub.requestSerialize({
      topic: "projects/p/topics/top",
      messages: [{ attributes: { ["__proto__"]: "p", constructor: "c", toString: "s" } }],
    });
    const attrs = decodePublishRequest(buf).messages[0].attributes!;
    expect(Object.keys(attrs).sort()).toEqual(["__proto__", "constructor", "toString"]);
    expect(attrs["__proto__"]).toBe("p");
    expect(Object.getPrototypeOf(attrs)).toBe(null);
  });

  test("a string field that is not UTF-8 is refused naming the field; U+FFFD itself is fine", () => {
    const field = (n: number, b: Buffer) => Buffer.concat([Buffer.from([(n << 3) | 2, b.length]), b]);
    const bad = Buffer.from([0x61, 0xed, 0xa0, 0x80]); // an encoded surrogate
    const entry = field(1, bad);
    expect(() => decodePublishRequest(field(1, bad))).toThrow("topic");
    expect(() => decodePublishRequest(field(2, field(2, entry)))).toThrow("messages.attributes");
    expect(() => decodePublishRequest(field(2, field(5, Buffer.from([0xff]))))).toThrow("messages.ordering_key");
    expect(() => decodeAcknowledgeRequest(field(2, Buffer.from([0xc0, 0x80])))).toThrow("ack_ids");
    const ok = decodePublishRequest(field(1, Buffer.from("t\uFFFDx")));
    expect(ok.topic).toBe("t\uFFFDx");
  });

  test("encodes ids protobufjs decodes", () => {
    const out = pub.responseDeserialize(encodePublishResponse({ messageIds: ["1", "22", "333"] }));
    expect(out.messageIds).toEqual(["1", "22", "333"]);
  });
});

describe("delivery responses", () => {
  const msg = (over: Partial<StoredMessage> = {}): StoredMessage => ({
    id: "42",
    seq: 42,
    data: Buffer.from("payload"),
    attributes: { k: "v", "ünï": "cødé" },
    orderingKey: "key-ü",
    publishTime: 1_700_000_123_456,
    size: 0,
    ...over,
  });

  test("StreamingPullResponse with attempts and properties", () => {
    const buf = encodeDeliveryResponse({
      deliveries: [
        { ackId: "a1", message: msg(), deliveryAttempt: 3 },
        { ackId: "a2", message: msg({ data: new Uint8Array(0), orderingKey: "", publishTime: 1_700_000_000_000 }), deliveryAttempt: 1 },
      ],
      withAttempt: true,
      properties: { exactlyOnce: true, ordering: true },
    });
    const out = stream.responseDeserialize(buf);
    expect(out.receivedMessages).toHaveLength(2);
    const [r1, r2] = out.receivedMessages;
    expect(r1.ackId).toBe("a1");
    expect(r1.deliveryAttempt).toBe(3);
    expect(Buffer.from(r1.message.data).toString()).toBe("payload");
    expect(r1.message.attributes).toEqual({ k: "v", "ünï": "cødé" });
    expect(r1.message.messageId).toBe("42");
    expect(r1.message.orderingKey).toBe("key-ü");
    expect(Number(r1.message.publishTime.seconds)).toBe(1_700_000_123);
    expect(r1.message.publishTime.nanos).toBe(456_000_000);
    expect((r2.message.data ?? []).length).toBe(0);
    expect(r2.message.publishTime.nanos ?? 0).toBe(0);
    expect(out.subscriptionProperties).toEqual({ exactlyOnceDeliveryEnabled: true, messageOrderingEnabled: true });
  });

  test("exactly-once confirmations (fields 5 and 3) alongside messages, and a large message id", () => {
    const buf = encodeDeliveryResponse({
      deliveries: [{ ackId: "m1", message: msg({ id: "9007199254740991", seq: 9_007_199_254_740_991 }), deliveryAttempt: 1 }],
      withAttempt: false,
      properties: { exactlyOnce: true, ordering: false },
      ackConfirmation: { ackIds: ["a1", "a2"], invalidAckIds: ["bad-ü"] },
      modackConfirmation: { ackIds: [], invalidAckIds: ["x".repeat(300)] },
    });
    const out = stream.responseDeserialize(buf);
    expect(out.receivedMessages[0].message.messageId).toBe("9007199254740991");
    expect(out.acknowledgeConfirmation).toEqual({ ackIds: ["a1", "a2"], invalidAckIds: ["bad-ü"] });
    expect(out.modifyAckDeadlineConfirmation).toEqual({ invalidAckIds: ["x".repeat(300)] });
    expect(out.subscriptionProperties).toEqual({ exactlyOnceDeliveryEnabled: true });
  });

  test("PullResponse without attempts; a keepalive reply is empty", () => {
    const out = pull.responseDeserialize(
      encodeDeliveryResponse({ deliveries: [{ ackId: "z", message: msg(), deliveryAttempt: 2 }], withAttempt: false }),
    );
    expect(out.receivedMessages[0].deliveryAttempt ?? 0).toBe(0);
    expect(encodeDeliveryResponse({ deliveries: [], withAttempt: false }).length).toBe(0);
  });
});

describe("requests", () => {
  test("StreamingPullRequest fields, negative deadlines and packed ints", () => {
    const request = {
      subscription: "projects/p/subscriptions/sub",
      ackIds: ["a", "b"],
      modifyDeadlineSeconds: [0, 30, -1],
      modifyDeadlineAckIds: ["c", "d", "e"],
      streamAckDeadlineSeconds: 60,
      clientId: "cid",
      maxOutstandingMessages: 1000,
      maxOutstandingBytes: 5_000_000_000,
      protocolVersion: 1,
    };
    expect(decodeStreamingPullRequest(stream.requestSerialize(request))).toEqual(request);
  });

  test("AcknowledgeRequest", () => {
    const buf = ack.requestSerialize({ subscription: "projects/p/subscriptions/sub", ackIds: ["x1", "y2"] });
    expect(decodeAcknowledgeRequest(buf)).toEqual({ subscription: "projects/p/subscriptions/sub", ackIds: ["x1", "y2"] });
  });

  test("garbage becomes INVALID_ARGUMENT, not a throw inside grpc-js", () => {
    const decode = malformedSafe(decodePublishRequest);
    const req = decode(Buffer.from([0x12, 0xff, 0xff, 0x03, 0x01]));
    expect(() => checkDecoded(req)).toThrow(/could not be decoded/);
    expect(() => checkDecoded(decode(pub.requestSerialize({ topic: "t" })))).not.toThrow();
  });
});

test("ModifyAckDeadlineRequest, including a negative deadline", () => {
  const modack = services.Subscriber.ModifyAckDeadline;
  for (const ackDeadlineSeconds of [0, 600, -1]) {
    const buf = modack.requestSerialize({ subscription: "projects/p/subscriptions/sub", ackIds: ["q", "r"], ackDeadlineSeconds });
    expect(decodeModifyAckDeadlineRequest(buf)).toEqual({ subscription: "projects/p/subscriptions/sub", ackIds: ["q", "r"], ackDeadlineSeconds });
  }
});

test("message ids of every length encode as their decimal seq", () => {
  for (const seq of [0, 7, 10, 99, 100, 12345, 99_999_999, 100_000_000, 2 ** 31 - 1, 2 ** 31, 123_456_789_012, 2 ** 53 - 1]) {
    const message = { id: String(seq), seq, data: Buffer.from("d"), attributes: {}, orderingKey: "", publishTime: 0, size: 1 };
    const out = pull.responseDeserialize(encodeDeliveryResponse({ deliveries: [{ ackId: "a", message, deliveryAttempt: 1 }], withAttempt: false }));
    expect(out.receivedMessages[0].message.messageId).toBe(String(seq));
  }
});

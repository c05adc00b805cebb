import { describe, expect, test } from "bun:test";
import { LIMITS, checkPublish } from "../../src/core/rules/limits.ts";
import type { MessageInput } from "../../src/core/message.ts";
import { bytes, caught, makeTopic, setup, expectRefused, setupWithSub } from "../helpers/core.ts";

const one = (m: MessageInput) => [m];
const attrs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));

/** Each row: messages, expected code, a substring the message must contain. */
const rejected: [string, () => MessageInput[], string, string][] = [
  ["no messages", () => [], "INVALID_ARGUMENT", "message_count"],
  ["1001 messages", () => Array.from({ length: 1001 }, () => ({ data: bytes("x") })), "INVALID_ARGUMENT", "1000"],
  ["an empty message", () => one({}), "INVALID_ARGUMENT", "empty"],
  ["an empty message with only an ordering key", () => one({ orderingKey: "k" }), "INVALID_ARGUMENT", "empty"],
  ["101 attributes", () => one({ attributes: attrs(101) }), "INVALID_ARGUMENT", "100"],
  ["a 257-byte attribute key", () => one({ attributes: { ["k".repeat(257)]: "v" } }), "INVALID_ARGUMENT", "256"],
  ["a 129×'é' (258-byte) attribute key", () => one({ attributes: { ["é".repeat(129)]: "v" } }), "INVALID_ARGUMENT", "256"],
  ["a 1025-byte attribute value", () => one({ attributes: { k: "v".repeat(1025) } }), "INVALID_ARGUMENT", "1024"],
  ["a 513×'é' (1026-byte) attribute value", () => one({ attributes: { k: "é".repeat(513) } }), "INVALID_ARGUMENT", "1024"],
  ["a 342×'€' (1026-byte) attribute value", () => one({ attributes: { k: "€".repeat(342) } }), "INVALID_ARGUMENT", "1024"],
  ["a 1025-byte ordering key", () => one({ data: bytes("x"), orderingKey: "o".repeat(1025) }), "INVALID_ARGUMENT", "ordering_key"],
  ["data over 10,000,000 bytes", () => one({ data: new Uint8Array(10_000_001) }), "INVALID_ARGUMENT", "10000000"],
  [
    "mixed ordering keys",
    () => [{ data: bytes("a"), orderingKey: "k1" }, { data: bytes("b"), orderingKey: "k2" }],
    "FAILED_PRECONDITION",
    "ordering key",
  ],
  [
    "an ordering key on some messages only",
    () => [{ data: bytes("a"), orderingKey: "k1" }, { data: bytes("b") }],
    "FAILED_PRECONDITION",
    "ordering key",
  ],
  [
    "a request over 10,000,000 bytes in total",
    () => [{ data: new Uint8Array(5_000_000) }, { data: new Uint8Array(5_000_001) }],
    "INVALID_ARGUMENT",
    "request_size",
  ],
];

describe("checkPublish rejects", () => {
  test.each(rejected)("%s", (_name, messages, code, substring) => {
    const e = caught(() => checkPublish(messages()));
    expect(e.code).toBe(code as never);
    expect(e.message).toContain(substring);
  });

  test("a request size given by the transport over 10,000,000 is INVALID_ARGUMENT naming request_size", () => {
    expectRefused(() => checkPublish([{ data: bytes("x") }], 10_000_001), "INVALID_ARGUMENT", "request_size");
  });
});

describe("checkPublish accepts", () => {
  test("the limits themselves are as the real service sets them", () => {
    expect(LIMITS.messagesPerPublish).toBe(1000);
    expect(LIMITS.publishRequestBytes).toBe(10_000_000);
    expect(LIMITS.attributesPerMessage).toBe(100);
    expect(LIMITS.attributeKeyBytes).toBe(256);
    expect(LIMITS.attributeValueBytes).toBe(1024);
  });

  test("values exactly at each limit", () => {
    const ok: MessageInput[][] = [
      Array.from({ length: 1000 }, () => ({ data: bytes("x") })),
      one({ attributes: attrs(100) }),
      one({ attributes: { ["k".repeat(256)]: "v" } }),
      one({ attributes: { ["é".repeat(128)]: "v" } }),
      one({ attributes: { k: "v".repeat(1024) } }),
      one({ attributes: { k: "é".repeat(512) } }),
      one({ data: bytes("x"), orderingKey: "o".repeat(1024) }),
      one({ attributes: { only: "attributes" } }),
    ];
    for (const m of ok) expect(checkPublish(m).length).toBe(m.length);
  });

  test("sizes count data, attribute keys and values and the ordering key in UTF-8 bytes", () => {
    expect(checkPublish(one({ data: bytes("abc"), attributes: { ké: "vé" }, orderingKey: "€" }))).toEqual([3 + 3 + 3 + 3]);
  });

  test("broker.publish applies the same checks", () => {
    const { broker, topic } = setupWithSub();
    expect(caught(() => broker.topics.publish(topic, [{}])).code).toBe("INVALID_ARGUMENT");
    expect(caught(() => broker.topics.publish(topic, [{ data: bytes("a"), orderingKey: "x" }, { data: bytes("b"), orderingKey: "y" }])).code).toBe(
      "FAILED_PRECONDITION",
    );
  });
});

describe("unicode", () => {
  test("an attribute or ordering key with a lone surrogate (possible in JSON) is INVALID_ARGUMENT", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const cases: MessageInput[] = [{ attributes: { "k\uD800": "v" } }, { attributes: { k: "v\uDC00" } }, { data: bytes("x"), orderingKey: "\uD800" }];
    for (const m of cases) {
      expectRefused(() => broker.topics.publish(topic, [m]), "INVALID_ARGUMENT", "lone surrogate");
    }
    expect(broker.topics.publish(topic, [{ attributes: { "ключ😀": "значение" }, orderingKey: "é" }]).length).toBe(1);
  });
});

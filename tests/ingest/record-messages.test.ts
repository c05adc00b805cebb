/** Stream records → messages at Pub/Sub's limits: what cannot be carried is left out, never the whole record refused. */
import { expect, test } from "bun:test";
import { kafkaMessage, kinesisMessage } from "../../src/ingest/record-messages.ts";
import { checkMessage } from "../../src/core/rules/limits.ts";

const b = (s: string) => Buffer.from(s);

test("headers past Pub/Sub's attribute limits are dropped and counted; the rest pass the publish checks", () => {
  const headers: [Uint8Array | null, Uint8Array | null][] = [];
  for (let i = 0; i < 120; i++) headers.push([b(`h${i}`), b("v")]);
  headers.push([b("k".repeat(257)), b("long key")], [b("long-value"), b("v".repeat(1025))], [Buffer.from([0xff, 0xfe]), b("bad name")], [b("bad-value"), Buffer.from([0xc3])], [null, b("no name")]);
  headers.push([b("__proto__"), b("plain")], [b("h0"), b("last wins")]);
  const { message, dropped } = kafkaMessage({ key: b("k".repeat(1025)), value: b("data"), headers });
  expect(Object.keys(message!.attributes!).length).toBe(100);
  expect(message!.attributes!.h0).toBe("last wins");
  expect(Object.getPrototypeOf(message!.attributes)).toBeNull();
  expect(dropped).toBe(20 + 5 + 1);
  expect(message!.orderingKey).toBeUndefined(); // over 1,024 bytes: no ordering key rather than no message
  expect(() => checkMessage(message!, 0)).not.toThrow();
});

test("a key that is not UTF-8 gives no ordering key; a tombstone (null value) with headers is a message of attributes", () => {
  const r = kafkaMessage({ key: Buffer.from([0xff]), value: null, headers: [[b("a"), null]] });
  expect(r.message).toEqual({ data: new Uint8Array(0), attributes: Object.assign(Object.create(null), { a: "" }) });
  expect(kafkaMessage({ key: b("k"), value: null, headers: [] }).message).toBeNull();
});

test("Kinesis: data and partition key; an empty record is none", () => {
  expect(kinesisMessage(b("x"), "pk")).toEqual({ data: b("x"), orderingKey: "pk" });
  expect(kinesisMessage(new Uint8Array(0), "pk")).toBeNull();
});

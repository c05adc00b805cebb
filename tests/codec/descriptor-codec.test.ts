/**
 * The descriptor codec (src/grpc/codec/descriptor-codec.ts) against protobufjs, the codec it
 * replaced, on every served method's request and response type: random messages of each type
 * (every field: scalars, enums known and unknown, maps, repeated, nested, oneofs and proto3
 * `optional` presence, Duration/Timestamp/Struct) encode to the same bytes as fromObject + encode,
 * and any sequence of such encodings with unknown fields of every wire type between them decodes
 * to what decode + toObject gives. Hostile bytes are refused as Malformed or BadField only, which
 * the transports answer INVALID_ARGUMENT.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type protobuf from "protobufjs";
import descriptor from "../../protos/descriptor.json" with { type: "json" };
import { decodeMessage, encodeMessage } from "../../src/grpc/codec/descriptor-codec.ts";
import { DescriptorTypes, type FieldInfo, type MessageInfo } from "../../src/grpc/codec/descriptor-types.ts";
import { Malformed } from "../../src/grpc/codec/wire.ts";
import { BadField, checkDecoded, malformedSafe } from "../../src/grpc/malformed.ts";
import { methodType } from "../../src/proto/subset.ts";
import { decodePlainPullRequest } from "../../src/grpc/codec/pull-request.ts";
import { servedDefinition } from "../../src/grpc/methods.ts";
import { SERVICES, serviceMethods, type ServiceName } from "../../src/rpc/services.ts";
import { expectRefused } from "../helpers/core.ts";

const pb = require("protobufjs") as typeof protobuf;
const root = pb.Root.fromJSON(descriptor).resolveAll();
const types = new DescriptorTypes(descriptor);
/** definitions.ts's options: what the server's handlers were given by protobufjs. */
const TO_OBJECT: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: false, oneofs: true };
const RUNS = Number(process.env.CODEC_RUNS ?? 60);

/** Every served method's request and response type, once each. */
const TYPE_NAMES = [
  ...new Set(
    Object.entries(SERVICES).flatMap(([service, full]) =>
      Object.keys(serviceMethods(service as ServiceName)).flatMap((m) => (["request", "response"] as const).map((side) => methodType(descriptor as never, full, m, side))),
    ),
  ),
].sort();

/** Plain data for comparison: bytes as arrays, objects with any prototype as plain ones. */
function plain(v: unknown): unknown {
  if (v instanceof Uint8Array) return { bytes: [...v] };
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).map((k) => [k, plain((v as Record<string, unknown>)[k])]));
  return v;
}

const text = fc.string({ unit: "grapheme", maxLength: 12 });

function scalarArb(kind: string): fc.Arbitrary<unknown> {
  switch (kind) {
    case "string":
      return text;
    case "bytes":
      return fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b));
    case "bool":
      return fc.boolean();
    case "int32":
    case "sint32":
    case "sfixed32":
      return fc.integer();
    case "uint32":
    case "fixed32":
      return fc.nat({ max: 0xffffffff });
    case "int64":
    case "sint64":
    case "sfixed64":
      return fc.oneof(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.maxSafeInteger());
    case "uint64":
    case "fixed64":
      return fc.maxSafeNat();
    case "float":
      return fc.float({ noNaN: true });
    case "double":
      return fc.double({ noNaN: true });
  }
  throw new Error(kind);
}

function valueArb(f: FieldInfo, depth: number): fc.Arbitrary<unknown> {
  if (f.kind === "enum") return fc.oneof(fc.constantFrom(...f.enumInfo!.byName.keys()), fc.integer({ min: 0, max: 40 }));
  if (f.kind === "message") return messageArb(f.message!(), depth + 1);
  return scalarArb(f.kind);
}

/** A random plain object of type `t`: each field absent or set, nested up to a depth. */
function messageArb(t: MessageInfo, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 3) return fc.constant({});
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of t.fields) {
    const one = valueArb(f, depth);
    parts[f.name] = f.map
      ? fc.dictionary(fc.string({ maxLength: 6 }).filter((k) => k !== "__proto__"), one, { maxKeys: 3 })
      : f.repeated
        ? fc.array(one, { maxLength: 3 })
        : one;
  }
  return fc.record(parts, { requiredKeys: [] });
}

const arbCache = new Map<string, fc.Arbitrary<Record<string, unknown>>>();
const arbOf = (name: string) => arbCache.get(name) ?? arbCache.set(name, messageArb(types.message(name))).get(name)!;

const pbEncode = (name: string, obj: unknown) => {
  const T = root.lookupType(name);
  return Buffer.from(T.encode(T.fromObject(obj as Record<string, unknown>)).finish());
};
const pbDecode = (name: string, buf: Buffer) => {
  const T = root.lookupType(name);
  return T.toObject(T.decode(buf), TO_OBJECT);
};

/** Unknown fields of every wire type, groups (nested) included, at numbers no served type uses. */
const unknownField: fc.Arbitrary<Buffer> = fc.letrec<{ field: Buffer }>((tie) => ({
  field: fc.oneof(
    { depthSize: "small" },
    fc.tuple(fc.integer({ min: 1000, max: 5000 }), fc.maxSafeNat()).map(([n, v]) => Buffer.from(pb.Writer.create().uint32(n * 8).uint64(v).finish())),
    fc.tuple(fc.integer({ min: 1000, max: 5000 }), fc.uint8Array({ maxLength: 8 })).map(([n, b]) => Buffer.from(pb.Writer.create().uint32(n * 8 + 2).bytes(b).finish())),
    fc.integer({ min: 1000, max: 5000 }).map((n) => Buffer.from(pb.Writer.create().uint32(n * 8 + 1).fixed64(7).uint32(n * 8 + 5).fixed32(9).finish())),
    fc.tuple(fc.integer({ min: 1000, max: 5000 }), fc.array(tie("field"), { maxLength: 2 })).map(([n, inner]) =>
      Buffer.concat([Buffer.from(pb.Writer.create().uint32(n * 8 + 3).finish()), ...inner, Buffer.from(pb.Writer.create().uint32(n * 8 + 4).finish())]),
    ),
  ),
})).field;

test("every served type is in the codec's tables (no proto2 required fields, no groups)", () => {
  expect(TYPE_NAMES.length).toBeGreaterThan(40);
  for (const name of TYPE_NAMES) expect(types.message(name).fullName).toBe(name);
});

describe.each(TYPE_NAMES)("%s", (name) => {
  test("encodes any message to protobufjs's bytes", () => {
    const info = types.message(name);
    fc.assert(fc.property(arbOf(name), (obj) => expect(encodeMessage(info, obj).toString("hex")).toBe(pbEncode(name, obj).toString("hex"))), { numRuns: RUNS });
  });

  test("decodes encodings merged, with unknown fields between them, as protobufjs's toObject", () => {
    const info = types.message(name);
    fc.assert(
      fc.property(fc.array(fc.tuple(arbOf(name), fc.array(unknownField, { maxLength: 2 })), { minLength: 1, maxLength: 3 }), (parts) => {
        const buf = Buffer.concat(parts.flatMap(([obj, unknown]) => [pbEncode(name, obj), ...unknown]));
        expect(plain(decodeMessage(info, buf))).toEqual(plain(pbDecode(name, buf)));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("field by field", () => {
  const topic = types.message("google.pubsub.v1.Topic");
  const sub = types.message("google.pubsub.v1.Subscription");

  test("presence: a default set explicitly is encoded and decoded back; an unset one is absent", () => {
    const obj = { name: "", labels: {}, kmsKeyName: "", satisfiesPzs: false, messageRetentionDuration: { seconds: 0 } };
    const bytes = encodeMessage(topic, obj);
    expect(bytes.toString("hex")).toBe(pbEncode("google.pubsub.v1.Topic", obj).toString("hex"));
    expect(decodeMessage(topic, bytes)).toEqual({ name: "", kmsKeyName: "", messageRetentionDuration: { seconds: 0 }, satisfiesPzs: false });
  });

  test("enums: names out, an unknown number kept as a number; names and numbers in", () => {
    const obj = { state: 7 };
    expect(decodeMessage(topic, encodeMessage(topic, obj))).toEqual({ state: 7 });
    expect(decodeMessage(topic, encodeMessage(topic, { state: 1 }))).toEqual({ state: "ACTIVE" });
    expect(encodeMessage(topic, { state: "NOPE" }).length).toBe(0);
  });

  test("maps are prototype-free: __proto__ and constructor are plain keys", () => {
    const buf = pbEncode("google.pubsub.v1.Topic", { labels: { constructor: "x" } });
    const hostile = Buffer.concat([buf, Buffer.from([0x12, 0x0f, 0x0a, 0x09, ...Buffer.from("__proto__"), 0x12, 0x02, 0x6f, 0x6b])]);
    const got = decodeMessage(topic, hostile).labels as Record<string, string>;
    expect(Object.getPrototypeOf(got)).toBeNull();
    expect(Object.keys(got).sort()).toEqual(["__proto__", "constructor"]);
    expect(got.__proto__).toBe("ok");
  });

  test("Duration, Timestamp and int64 past 32 bits", () => {
    const obj = { messageRetentionDuration: { seconds: 2 ** 40 + 3, nanos: 999 }, expirationPolicy: { ttl: { seconds: -5, nanos: -1 } }, ackDeadlineSeconds: -1 };
    const bytes = encodeMessage(sub, obj);
    expect(bytes.toString("hex")).toBe(pbEncode("google.pubsub.v1.Subscription", obj).toString("hex"));
    expect(plain(decodeMessage(sub, bytes))).toEqual(plain(pbDecode("google.pubsub.v1.Subscription", bytes)));
    const seek = types.message("google.pubsub.v1.SeekRequest");
    const ts = { subscription: "s", time: { seconds: 1_700_000_000, nanos: 5 } };
    expect(decodeMessage(seek, encodeMessage(seek, ts))).toEqual({ ...ts, target: "time" });
  });

  test("oneofs and proto3 optional fields are named by the member set", () => {
    const settings = types.message("google.pubsub.v1.IngestionDataSourceSettings");
    const obj = { cloudStorage: { bucket: "b", textFormat: { delimiter: "" } } };
    const got = decodeMessage(settings, encodeMessage(settings, obj));
    expect(got).toEqual({ cloudStorage: { bucket: "b", textFormat: { delimiter: "", _delimiter: "delimiter" }, inputFormat: "textFormat" }, source: "cloudStorage" });
    expect(plain(got)).toEqual(plain(pbDecode("google.pubsub.v1.IngestionDataSourceSettings", encodeMessage(settings, obj))));
  });

  test("Empty encodes from anything, as protobufjs's fromObject takes anything for a type without fields", () => {
    const empty = types.message("google.protobuf.Empty");
    for (const v of [undefined, null, {}, { stray: 1 }]) expect(encodeMessage(empty, v).length).toBe(pbEncode("google.protobuf.Empty", v).length);
  });

  test("a packable repeated field decodes packed and unpacked alike", () => {
    const req = types.message("google.pubsub.v1.StreamingPullRequest");
    const unpacked = Buffer.from([0x18, 0x05, 0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    const packed = Buffer.from([0x1a, 0x0b, 0x05, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    for (const b of [unpacked, packed]) expect(decodeMessage(req, b)).toEqual({ modifyDeadlineSeconds: [5, -1] });
    expect(encodeMessage(req, { modifyDeadlineSeconds: [5, -1] })).toEqual(packed);
  });

  test("Struct and Value nest recursively", () => {
    const t = types.message("google.protobuf.Struct");
    const obj = { fields: { a: { listValue: { values: [{ numberValue: 1.5 }, { structValue: { fields: { b: { nullValue: "NULL_VALUE" } } } }] } } } };
    const bytes = encodeMessage(t, obj);
    expect(bytes.toString("hex")).toBe(pbEncode("google.protobuf.Struct", obj).toString("hex"));
    expect(plain(decodeMessage(t, bytes))).toEqual(plain(pbDecode("google.protobuf.Struct", bytes)));
  });

  test("invalid UTF-8 is refused naming the field, nested and in map keys", () => {
    const bad = Buffer.from([0xc3, 0x28]);
    const nested = Buffer.concat([Buffer.from([0x0a, 0x01, 0x73, 0x22, bad.length + 2, 0x0a, bad.length]), bad]);
    expect(() => decodeMessage(sub, nested)).toThrow("Invalid UTF-8 in the push_config.push_endpoint field");
    const mapKey = Buffer.concat([Buffer.from([0x12, bad.length + 4, 0x0a, bad.length]), bad, Buffer.from([0x12, 0x00])]);
    expect(() => decodeMessage(topic, mapKey)).toThrow("Invalid UTF-8 in the labels field");
  });
});

describe("PullRequest's plain-form decoder", () => {
  const name = "google.pubsub.v1.PullRequest";
  const served = servedDefinition("Subscriber").Pull;

  test("takes the plain form and gives what the descriptor codec gives; any other form goes to it", () => {
    fc.assert(
      fc.property(arbOf(name), fc.array(unknownField, { maxLength: 1 }), fc.boolean(), (obj, unknown, bigBool) => {
        let buf = Buffer.concat([pbEncode(name, obj), ...unknown]);
        if (bigBool) buf = Buffer.concat([buf, Buffer.from([0x10, 0x80, 0x80, 0x80, 0x80, 0x10])]); // 2^32: false, as protobufjs reads it
        const plainForm = decodePlainPullRequest(buf);
        if (!unknown.length && !bigBool) expect(plainForm).toBeDefined();
        const expected = decodeMessage(types.message(name), buf);
        if (plainForm) expect(plainForm).toEqual(expected);
        expect(served.requestDeserialize(buf)).toEqual(expected);
        expect(plain(expected)).toEqual(plain(pbDecode(name, buf)));
      }),
      { numRuns: RUNS * 5 },
    );
  });
});

describe("hostile bytes", () => {
  const isRefusal = (e: unknown) => e instanceof Malformed || e instanceof BadField;

  test("random bytes decode or are refused as Malformed/BadField, never another error", () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPE_NAMES), fc.uint8Array({ maxLength: 64 }), (name, bytes) => {
        try {
          decodeMessage(types.message(name), Buffer.from(bytes));
        } catch (e) {
          if (!isRefusal(e)) throw e;
        }
      }),
      { numRuns: RUNS * 20 },
    );
  });

  test("a valid message cut short or with a byte flipped decodes or is refused, never another error", () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPE_NAMES).chain((n) => fc.tuple(fc.constant(n), arbOf(n), fc.nat(), fc.nat({ max: 255 }))), ([name, obj, at, byte]) => {
        const buf = pbEncode(name, obj);
        if (!buf.length) return;
        const cut = buf.subarray(0, at % buf.length);
        const flipped = Buffer.from(buf);
        flipped[at % buf.length] = byte;
        for (const b of [cut, flipped]) {
          try {
            decodeMessage(types.message(name), b);
          } catch (e) {
            if (!isRefusal(e)) throw e;
          }
        }
      }),
      { numRuns: RUNS * 5 },
    );
  });

  test("nesting past 100 levels is refused, not recursed into", () => {
    const t = types.message("google.protobuf.Struct");
    // Struct{fields: {"": Value{struct_value: Struct{…}}}} a thousand deep.
    let inner = Buffer.alloc(0);
    for (let i = 0; i < 1000; i++) {
      const value = Buffer.concat([Buffer.from([0x2a]), varint(inner.length), inner]);
      const entry = Buffer.concat([Buffer.from([0x0a, 0x00, 0x12]), varint(value.length), value]);
      inner = Buffer.concat([Buffer.from([0x0a]), varint(entry.length), entry]);
    }
    expect(() => decodeMessage(t, inner)).toThrow(Malformed);
  });

  test("the transports answer a refused request INVALID_ARGUMENT", () => {
    const decode = malformedSafe((b: Buffer) => decodeMessage(topic(), b));
    for (const bytes of [[0x0a, 0x05, 0x61], [0x08], [0x0b], [0x0c], [0x0a, 0x02, 0xc3, 0x28], [0x00, 0x01]]) {
      expectRefused(() => checkDecoded(decode(Buffer.from(bytes))), "INVALID_ARGUMENT", "");
    }
  });
});

const topic = () => types.message("google.pubsub.v1.Topic");

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}

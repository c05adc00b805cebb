/**
 * A topic's Avro or Protocol Buffer schema as the fields a BigQuery row takes from it, and the
 * decoding of one message into plain values. Avro structure is read from the definition's JSON
 * (avsc drops unregistered logical types, which decide the mapping); values come from avsc and
 * protobufjs, the parsers the schema registry already uses.
 */
import type avro from "avsc";
import type protobuf from "protobufjs";
import type { SchemaRevision } from "../../schemas/registry.ts";

/** protobufjs, loaded by then: only a compiled protobuf revision reaches the code that asks. */
const pb = (): typeof protobuf => require("protobufjs");

export interface SrcField {
  name: string;
  /** Avro or proto type name: boolean, int, long, int32, uint64, string, bytes, record, enum, map… */
  kind: string;
  /** Avro logical type (timestamp-micros, date, time-micros, duration, decimal). */
  logical?: string;
  scale?: number;
  optional: boolean;
  repeated: boolean;
  fields?: SrcField[];
  /** Avro enum symbols, in order (an enum is written as its index). */
  symbols?: string[];
  /** Why this field has no BigQuery column (general unions, oneofs). */
  unmappable?: string;
}

export interface TopicRows {
  fields: SrcField[];
  decode(data: Uint8Array, encoding: string): Record<string, unknown>;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// ---- Avro ----

function avroField(name: string, schema: unknown, named: Map<string, Json>, depth: number): SrcField {
  const base: SrcField = { name, kind: "null", optional: false, repeated: false };
  if (depth > 32) return { ...base, unmappable: "nested too deeply" };
  if (Array.isArray(schema)) {
    const others = schema.filter((s) => s !== "null" && (s as Json)?.type !== "null");
    if (others.length === 1 && schema.length === 2) return { ...avroField(name, others[0], named, depth + 1), optional: true };
    return { ...base, unmappable: "a union other than [null, T] has no BigQuery type" };
  }
  if (typeof schema === "string") {
    const ref = named.get(schema) ?? [...named.entries()].find(([k]) => k.endsWith(`.${schema}`))?.[1];
    return ref ? avroField(name, ref, named, depth + 1) : { ...base, kind: schema };
  }
  const s = schema as Json;
  if (s?.name && (s.type === "record" || s.type === "enum" || s.type === "fixed")) {
    named.set(s.namespace ? `${s.namespace}.${s.name}` : String(s.name), s);
  }
  const logical = typeof s?.logicalType === "string" ? s.logicalType : undefined;
  switch (s?.type) {
    case "record":
      return { ...base, kind: "record", fields: (s.fields ?? []).map((f: Json) => avroField(f.name, f.type, named, depth + 1)) };
    case "enum":
      return { ...base, kind: "enum", symbols: s.symbols };
    case "array": {
      const item = avroField(name, s.items, named, depth + 1);
      return item.repeated ? { ...base, unmappable: "arrays of arrays have no BigQuery type" } : { ...item, repeated: true, optional: false };
    }
    case "map": {
      const value = avroField("value", s.values, named, depth + 1);
      return { ...base, kind: "map", repeated: true, fields: [{ name: "key", kind: "string", optional: false, repeated: false }, value] };
    }
    default: {
      const inner = typeof s?.type === "string" ? avroField(name, s.type, named, depth + 1) : base;
      return { ...inner, logical, scale: typeof s?.scale === "number" ? s.scale : 0 };
    }
  }
}

function avroRows(revision: SchemaRevision): TopicRows {
  const root = avroField("", JSON.parse(revision.definition), new Map(), 0);
  const type = (revision.compiled as unknown as { type: avro.Type }).type;
  return {
    fields: root.fields ?? [],
    decode(data, encoding) {
      const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      return (encoding === "BINARY" ? type.fromBuffer(buf) : type.fromString(buf.toString("utf8"))) as Record<string, unknown>;
    },
  };
}

// ---- Protocol Buffers ----

function protoFields(type: protobuf.Type, depth: number): SrcField[] {
  return type.fieldsArray.map((f) => {
    const field: SrcField = { name: f.name, kind: f.type, optional: !f.required, repeated: f.repeated || f.map };
    // proto3 `optional` is a synthetic one-field oneof named `_field`; a real oneof has no column.
    const oneof = f.partOf;
    if (oneof && !(oneof.oneof.length === 1 && oneof.name.startsWith("_"))) {
      return { ...field, unmappable: "oneof fields have no BigQuery type" };
    }
    if (depth > 32) return { ...field, unmappable: "nested too deeply" };
    if (f.map) {
      const mf = f as unknown as protobuf.MapField;
      const value: SrcField = { name: "value", kind: mf.type, optional: true, repeated: false };
      if (mf.resolvedType instanceof pb().Type) value.fields = protoFields(mf.resolvedType, depth + 1), (value.kind = "message");
      else if (mf.resolvedType instanceof pb().Enum) value.kind = "enum";
      return { ...field, kind: "map", fields: [{ name: "key", kind: mf.keyType, optional: false, repeated: false }, value] };
    }
    if (f.resolvedType instanceof pb().Type) return { ...field, kind: "message", fields: protoFields(f.resolvedType, depth + 1) };
    if (f.resolvedType instanceof pb().Enum) return { ...field, kind: "enum" };
    return field;
  });
}

function protoRows(revision: SchemaRevision): TopicRows {
  const type = (revision.compiled as unknown as { type: protobuf.Type }).type;
  const options: protobuf.IConversionOptions = { longs: String, enums: Number, arrays: true };
  return {
    fields: protoFields(type, 0),
    decode(data, encoding) {
      const msg =
        encoding === "BINARY"
          ? type.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
          : type.fromObject(JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8")));
      return type.toObject(msg, options);
    },
  };
}

/** The fields and decoder of one schema revision. */
export function topicRows(revision: SchemaRevision): TopicRows {
  return revision.type === "AVRO" ? avroRows(revision) : protoRows(revision);
}

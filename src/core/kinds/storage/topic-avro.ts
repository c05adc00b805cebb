/**
 * use_topic_schema for Cloud Storage Avro objects: records written with the topic's Avro schema
 * (each message decoded by the revision it was published under, from its JSON or binary encoding).
 * With write_metadata the topic schema must be a record, and its fields gain subscription_name,
 * message_id, publish_time and attributes, which it must not already have, as the documentation
 * states. A topic without a schema writes the default schemas; a Protocol Buffer schema, or a
 * record that cannot take the metadata, is SCHEMA_MISMATCH.
 */
import type avro from "avsc";
import { avsc } from "./avsc.ts";
import type { StoredMessage } from "../../message.ts";
import type { SchemaRegistry, SchemaRevision } from "../../schemas/registry.ts";
import type { SchemaSettings } from "../../schemas/topic-schema.ts";
import { AVRO_METADATA_SCHEMA, metadataRecord } from "./records.ts";

export interface TopicAvroWriter {
  /** The writer schema of the object (the revision of its first message, plus metadata fields). */
  schema: object;
  record(subscription: string, m: StoredMessage): unknown;
}

const METADATA_FIELDS = AVRO_METADATA_SCHEMA.fields.filter((f) => f.name !== "data");
const types = new WeakMap<SchemaRevision, avro.Type>();

function typeOf(rev: SchemaRevision): avro.Type {
  let t = types.get(rev);
  if (!t) types.set(rev, (t = avsc().Type.forSchema(JSON.parse(rev.definition), { registry: {} })));
  return t;
}

function revisionOf(registry: SchemaRegistry, m: StoredMessage, settings: SchemaSettings): SchemaRevision | null {
  const name = m.attributes.googclient_schemaname ?? settings.schema;
  const rev = m.attributes.googclient_schemarevisionid;
  try {
    return registry.get(rev ? `${name}@${rev}` : String(name));
  } catch {
    return null;
  }
}

/** null: no topic schema (default schemas); "SCHEMA_MISMATCH": it cannot be written this way. */
export function topicAvroWriter(
  registry: SchemaRegistry,
  settings: SchemaSettings | undefined,
  first: StoredMessage,
  writeMetadata: boolean,
): TopicAvroWriter | null | "SCHEMA_MISMATCH" {
  if (!settings?.schema) return null;
  const rev = revisionOf(registry, first, settings);
  if (!rev || rev.type !== "AVRO") return "SCHEMA_MISMATCH";
  const def = JSON.parse(rev.definition) as { type?: string; fields?: { name: string }[] };
  let schema: object = def;
  if (writeMetadata) {
    if (def.type !== "record" || !Array.isArray(def.fields)) return "SCHEMA_MISMATCH";
    if (def.fields.some((f) => METADATA_FIELDS.some((m) => m.name === f.name))) return "SCHEMA_MISMATCH";
    schema = { ...def, fields: [...def.fields, ...METADATA_FIELDS] };
  }
  const encoding = settings.encoding === "BINARY" ? "BINARY" : "JSON";
  return {
    schema,
    record(subscription, m) {
      const r = revisionOf(registry, m, settings);
      if (!r || r.type !== "AVRO") throw new Error("SCHEMA_MISMATCH");
      const t = typeOf(r);
      const data = m.data;
      const value = encoding === "BINARY"
        ? t.fromBuffer(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
        : t.fromString(new TextDecoder().decode(data));
      if (!writeMetadata) return value;
      const { data: _data, ...meta } = metadataRecord(subscription, m);
      return { ...(value as object), ...meta };
    },
  };
}

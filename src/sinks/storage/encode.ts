/**
 * The bytes of one Cloud Storage object, produced in chunks of about 1 MiB so a large batch is
 * written as it is encoded, never held whole a second time: newline-separated text, or an Avro
 * object container file (avsc's encoder, null codec, with backpressure).
 */
import type avro from "avsc";
import { avsc } from "../../core/kinds/storage/avsc.ts";
import { once } from "node:events";
import type { StorageBatch } from "../../core/kinds/storage/batches.ts";
import { storageConfigOf } from "../../core/kinds/storage/config.ts";
import { AVRO_METADATA_SCHEMA, AVRO_SCHEMA, metadataRecord, outputFormat } from "../../core/kinds/storage/records.ts";
import { topicAvroWriter } from "../../core/kinds/storage/topic-avro.ts";
import type { SchemaRegistry } from "../../core/schemas/registry.ts";
import type { SchemaSettings } from "../../core/schemas/topic-schema.ts";

export interface ObjectBody {
  /** The object's bytes in order; iteration throws "SCHEMA_MISMATCH" when a record cannot be written. */
  chunks: AsyncIterable<Uint8Array>;
  contentType: string;
}

const CHUNK_BYTES = 1 << 20;
const NEWLINE = new Uint8Array([10]);
const buf = (d: Uint8Array) => Buffer.from(d.buffer, d.byteOffset, d.byteLength);

async function* textChunks(batch: StorageBatch): AsyncGenerator<Uint8Array> {
  let parts: Uint8Array[] = [];
  let size = 0;
  for (let i = 0; i < batch.deliveries.length; i++) {
    const data = batch.deliveries[i].message.data;
    if (i) parts.push(NEWLINE);
    parts.push(data);
    size += data.length + 1;
    if (size >= CHUNK_BYTES) {
      yield Buffer.concat(parts);
      parts = [];
      size = 0;
    }
  }
  if (parts.length) yield Buffer.concat(parts);
}

/** An Avro container file of `records`, encoded as it is read; a record the schema refuses fails it. */
export async function* avroChunks(schema: object, records: Iterable<unknown>): AsyncGenerator<Uint8Array> {
  const enc = new (avsc().streams).BlockEncoder(schema as avro.Schema, { codec: "null" });
  let refused = false;
  enc.on("typeError", () => (refused = true));
  const produce = (async () => {
    try {
      for (const r of records) {
        if (refused) break;
        if (!enc.write(r)) await once(enc, "drain");
      }
    } catch {
      refused = true; // a record that could not be built (not the topic's schema)
    }
    enc.end();
  })();
  for await (const chunk of enc) yield chunk as Uint8Array;
  await produce;
  if (refused) throw "SCHEMA_MISMATCH";
}

/** The whole container file (tests, and small callers). */
export async function avroContainer(schema: object, records: readonly unknown[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of avroChunks(schema, records)) parts.push(c);
  return Buffer.concat(parts);
}

function* mapped<T>(items: readonly T[], f: (item: T) => unknown): Generator<unknown> {
  for (const item of items) yield f(item);
}

/** The object's body; throws "SCHEMA_MISMATCH" when use_topic_schema cannot write it. */
export function encodeObject(batch: StorageBatch, topic?: { registry: SchemaRegistry; settings: SchemaSettings | undefined }): ObjectBody {
  const format = outputFormat(batch.config);
  if (format === "text") return { chunks: textChunks(batch), contentType: "text/plain" };
  const octets = "application/octet-stream";
  if (topic && storageConfigOf(batch.config)?.avroConfig?.useTopicSchema) {
    const writer = topicAvroWriter(topic.registry, topic.settings, batch.deliveries[0].message, format === "avro-metadata");
    if (writer === "SCHEMA_MISMATCH") throw "SCHEMA_MISMATCH";
    if (writer) return { chunks: avroChunks(writer.schema, mapped(batch.deliveries, (d) => writer.record(batch.subscription, d.message))), contentType: octets };
  }
  const records = format === "avro"
    ? mapped(batch.deliveries, (d) => ({ data: buf(d.message.data) }))
    : mapped(batch.deliveries, (d) => ({ ...metadataRecord(batch.subscription, d.message), data: buf(d.message.data) }));
  return { chunks: avroChunks(format === "avro" ? AVRO_SCHEMA : AVRO_METADATA_SCHEMA, records), contentType: octets };
}

/** The bytes of one Cloud Storage object: newline-separated text, or an Avro object container file (avsc). */
import avro from "avsc";
import { AVRO_METADATA_SCHEMA, AVRO_SCHEMA, metadataRecord, outputFormat } from "../../core/kinds/storage/records.ts";
import type { StorageBatch } from "../../core/kinds/storage/batches.ts";
import { storageConfigOf } from "../../core/kinds/storage/config.ts";
import { topicAvroWriter } from "../../core/kinds/storage/topic-avro.ts";
import type { SchemaRegistry } from "../../core/schemas/registry.ts";
import type { SchemaSettings } from "../../core/schemas/topic-schema.ts";

const NEWLINE = new Uint8Array([10]);

export function textObject(batch: StorageBatch): Uint8Array {
  const parts: Uint8Array[] = [];
  batch.deliveries.forEach((d, i) => {
    if (i) parts.push(NEWLINE);
    parts.push(d.message.data);
  });
  return Buffer.concat(parts);
}

/** Writes records through avsc's container encoder (null codec) and collects the file. */
export function avroContainer(schema: object, records: readonly unknown[]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const enc = new avro.streams.BlockEncoder(schema as avro.Schema, { codec: "null" });
    const chunks: Buffer[] = [];
    enc.on("data", (c: Buffer) => chunks.push(c));
    enc.on("error", reject);
    enc.on("typeError", (e: Error) => reject(e));
    enc.on("end", () => resolve(Buffer.concat(chunks)));
    for (const r of records) enc.write(r);
    enc.end();
  });
}

/** The object's bytes; rejects with "SCHEMA_MISMATCH" when use_topic_schema cannot write them. */
export async function encodeObject(
  batch: StorageBatch,
  topic?: { registry: SchemaRegistry; settings: SchemaSettings | undefined },
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const format = outputFormat(batch.config);
  if (format === "text") return { bytes: textObject(batch), contentType: "text/plain" };
  if (topic && storageConfigOf(batch.config)?.avroConfig?.useTopicSchema) {
    const writer = topicAvroWriter(topic.registry, topic.settings, batch.deliveries[0].message, format === "avro-metadata");
    if (writer === "SCHEMA_MISMATCH") throw "SCHEMA_MISMATCH";
    if (writer) {
      let records: unknown[];
      try {
        records = batch.deliveries.map((d) => writer.record(batch.subscription, d.message));
      } catch {
        throw "SCHEMA_MISMATCH";
      }
      const bytes = await avroContainer(writer.schema, records).catch(() => {
        throw "SCHEMA_MISMATCH";
      });
      return { bytes, contentType: "application/octet-stream" };
    }
  }
  const records = format === "avro"
    ? batch.deliveries.map((d) => ({ data: Buffer.from(d.message.data.buffer, d.message.data.byteOffset, d.message.data.byteLength) }))
    : batch.deliveries.map((d) => {
        const r = metadataRecord(batch.subscription, d.message);
        const data = d.message.data;
        return { ...r, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
      });
  const bytes = await avroContainer(format === "avro" ? AVRO_SCHEMA : AVRO_METADATA_SCHEMA, records);
  return { bytes, contentType: "application/octet-stream" };
}

/** The bytes of one Cloud Storage object: newline-separated text, or an Avro object container file (avsc). */
import avro from "avsc";
import { AVRO_METADATA_SCHEMA, AVRO_SCHEMA, metadataRecord, outputFormat } from "../../core/kinds/storage/records.ts";
import type { StorageBatch } from "../../core/kinds/storage/batches.ts";

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

export async function encodeObject(batch: StorageBatch): Promise<{ bytes: Uint8Array; contentType: string }> {
  const format = outputFormat(batch.config);
  if (format === "text") return { bytes: textObject(batch), contentType: "text/plain" };
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

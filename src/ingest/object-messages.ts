/**
 * The messages one Cloud Storage object turns into on an import topic. Text: each piece between
 * delimiters (default "\n") is a message's data; empty pieces (a trailing delimiter, blank lines)
 * are no message, as a message needs data or attributes. Avro: each record of the object container
 * file is a message, its data the record in Avro binary encoding. Pub/Sub Avro (what a Cloud
 * Storage subscription writes): each record's `data`, and its `attributes` when it has them.
 */
import type avro from "avsc";
import { avsc } from "../core/kinds/storage/avsc.ts";
import type { Readable as ReadableType } from "node:stream";
import type { InputFormat } from "../core/kinds/storage/ingestion-config.ts";
import type { MessageInput } from "../core/message.ts";
import { dict } from "../core/safe-keys.ts";

export function textMessages(bytes: Uint8Array, delimiter = "\n"): MessageInput[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sep = Buffer.from(delimiter, "utf8");
  const out: MessageInput[] = [];
  let from = 0;
  while (from <= buf.length) {
    let at = buf.indexOf(sep, from);
    if (at < 0) at = buf.length;
    if (at > from) out.push({ data: new Uint8Array(buf.subarray(from, at)) });
    from = at + sep.length;
  }
  return out;
}

/** Every record of an Avro object container file, with the type that wrote it. */
function avroRecords(bytes: Uint8Array): Promise<{ type: avro.Type | null; records: unknown[] }> {
  return new Promise((resolve, reject) => {
    let type: avro.Type | null = null;
    const records: unknown[] = [];
    (require("node:stream").Readable as typeof ReadableType).from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)])
      .pipe(new (avsc().streams).BlockDecoder({ parseHook: (s) => (type = avsc().Type.forSchema(s as avro.Schema, { wrapUnions: true })) }))
      .on("data", (r: unknown) => records.push(r))
      .on("error", reject)
      .on("end", () => resolve({ type, records }));
  });
}

const toBytes = (v: unknown): Uint8Array | null => (v instanceof Uint8Array ? new Uint8Array(v) : typeof v === "string" ? new TextEncoder().encode(v) : null);

export async function objectMessages(bytes: Uint8Array, format: InputFormat, delimiter?: string): Promise<MessageInput[]> {
  if (format === "text") return textMessages(bytes, delimiter ?? "\n");
  const { type, records } = await avroRecords(bytes);
  if (format === "avro") return records.map((r) => ({ data: new Uint8Array(type!.toBuffer(r)) }));
  const out: MessageInput[] = [];
  for (const r of records as Array<Record<string, unknown>>) {
    const data = toBytes(r?.data) ?? new Uint8Array(0);
    const attrs = r?.attributes && typeof r.attributes === "object" ? (r.attributes as Record<string, unknown>) : null;
    const attributes = dict();
    let n = 0;
    if (attrs) {
      for (const k of Object.keys(attrs)) {
        if (typeof attrs[k] === "string") {
          attributes[k] = attrs[k] as string;
          n++;
        }
      }
    }
    if (!data.length && !n) continue;
    out.push(n ? { data, attributes } : { data });
  }
  return out;
}

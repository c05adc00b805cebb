/**
 * Stream records → Pub/Sub messages, as import topics map them: the record's value (Kinesis: its
 * data) is the message data; its key (Kinesis: its partition key) is the ordering key, so a
 * subscription with message ordering gets each key's records in the order the partition or shard
 * holds them; Kafka headers are attributes. What Pub/Sub cannot carry is left out rather than the
 * record refused: a key that is not UTF-8 or longer than an ordering key may be gives no ordering
 * key; a header that is not UTF-8, or whose name or value is longer than an attribute's may be,
 * and the headers past the 100th are dropped (the real service truncates to the limits too).
 */
import { dict } from "../core/safe-keys.ts";
import { byteLength, type MessageInput } from "../core/message.ts";
import { LIMITS } from "../core/rules/limits.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const EMPTY = new Uint8Array(0);

function text(b: Uint8Array | null | undefined): string | null {
  if (!b) return null;
  try {
    return utf8.decode(b);
  } catch {
    return null;
  }
}

export interface KafkaRecordView {
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: readonly (readonly [Uint8Array | null, Uint8Array | null])[];
}

/** The message, or null when it would be empty (no data, no attributes: Pub/Sub refuses those); `dropped` counts headers left out. */
export function kafkaMessage(r: KafkaRecordView): { message: MessageInput | null; dropped: number } {
  const message: MessageInput = { data: r.value ?? EMPTY };
  const key = orderingKey(text(r.key));
  if (key) message.orderingKey = key;
  let dropped = 0;
  let attributes: Record<string, string> | null = null;
  let count = 0;
  for (const [k, v] of r.headers) {
    const name = text(k);
    const value = v ? text(v) : "";
    if (!name || value === null || byteLength(name) > LIMITS.attributeKeyBytes || byteLength(value) > LIMITS.attributeValueBytes) {
      dropped++;
      continue;
    }
    attributes ??= dict();
    if (!(name in attributes)) {
      if (count === LIMITS.attributesPerMessage) {
        dropped++;
        continue;
      }
      count++;
    }
    attributes[name] = value; // a repeated header: the last one wins
  }
  if (attributes && count) message.attributes = attributes;
  const empty = message.data!.length === 0 && !message.attributes;
  return { message: empty ? null : message, dropped };
}

/** A Kinesis record: data, and its partition key as the ordering key. */
export function kinesisMessage(data: Uint8Array | undefined, partitionKey: string | undefined): MessageInput | null {
  if (!data || data.length === 0) return null;
  const key = orderingKey(partitionKey ?? null);
  return key ? { data, orderingKey: key } : { data };
}

function orderingKey(k: string | null): string | null {
  return k && byteLength(k) <= LIMITS.orderingKeyBytes ? k : null;
}

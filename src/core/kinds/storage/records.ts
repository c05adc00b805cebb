/**
 * What a Cloud Storage subscription writes for a message. Text: the data, newline-separated (no
 * attributes, no metadata). Avro: the real service's records — `PubsubMessage {data}`, or with
 * write_metadata `PubsubMessageWithMetadata {subscription_name, message_id, publish_time
 * (timestamp-micros), attributes, data}`, the ordering key (when set) in attributes as
 * `ordering_key`, as the documentation says of "all other message properties other than data".
 */
import type { StoredMessage } from "../../message.ts";
import type { SubscriptionResource } from "../../resources.ts";
import { storageConfigOf } from "./config.ts";
import { metadataAttributes } from "../metadata-attributes.ts";

export const AVRO_SCHEMA = {
  type: "record",
  namespace: "com.google.pubsub",
  name: "PubsubMessage",
  fields: [{ name: "data", type: "bytes" }],
} as const;

export const AVRO_METADATA_SCHEMA = {
  type: "record",
  namespace: "com.google.pubsub",
  name: "PubsubMessageWithMetadata",
  fields: [
    { name: "subscription_name", type: "string" },
    { name: "message_id", type: "string" },
    { name: "publish_time", type: { type: "long", logicalType: "timestamp-micros" } },
    { name: "attributes", type: { type: "map", values: "string" } },
    { name: "data", type: "bytes" },
  ],
} as const;

export type OutputFormat = "text" | "avro" | "avro-metadata";

export function outputFormat(config: SubscriptionResource): OutputFormat {
  const avro = storageConfigOf(config)?.avroConfig;
  if (!avro) return "text";
  return avro.writeMetadata ? "avro-metadata" : "avro";
}

export function metadataRecord(subscription: string, m: StoredMessage): Record<string, unknown> {
  const attributes = metadataAttributes(m);
  return {
    subscription_name: subscription,
    message_id: m.id,
    publish_time: m.publishTime * 1000,
    attributes,
    data: m.data,
  };
}

/** Bytes a message adds to an object (Avro: close to its encoded size, before the block framing). */
export function recordSize(config: SubscriptionResource, m: StoredMessage): number {
  switch (outputFormat(config)) {
    case "text":
      return m.data.length + 1;
    case "avro":
      return m.data.length + 5;
    default:
      return m.size + config.name.length + m.id.length + 32;
  }
}

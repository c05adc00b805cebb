/** How every import topic publishes what it read: through the broker, so schemas and transforms apply. */
import type { Broker } from "../core/broker.ts";
import { PubSubError } from "../core/errors.ts";
import type { MessageInput } from "../core/message.ts";

export type Published = { published: number; failed: number } | "wait";

/**
 * Publishes one chunk (≤ 1,000 messages sharing one ordering key). A message the topic refuses
 * (too large, not the topic's schema) is skipped and counted, as the real service logs an
 * ingestion failure and moves on; "wait" when the broker cannot take messages now (memory budget).
 */
export function publishChunk(broker: Broker, topic: string, chunk: readonly MessageInput[]): Published {
  try {
    return { published: broker.topics.publish(topic, chunk).length, failed: 0 };
  } catch (e) {
    if (!(e instanceof PubSubError) || e.code !== "INVALID_ARGUMENT") return "wait";
  }
  let published = 0;
  let failed = 0;
  for (const m of chunk) {
    try {
      published += broker.topics.publish(topic, [m]).length;
    } catch (e) {
      if (!(e instanceof PubSubError) || e.code !== "INVALID_ARGUMENT") return "wait";
      failed++;
    }
  }
  return { published, failed };
}

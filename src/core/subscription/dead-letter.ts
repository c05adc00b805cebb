/** The copy of a message that ran out of delivery attempts, as the real service forwards it. */
import type { Entry } from "./backlog.ts";
import { byteLength, type MessageInput } from "../message.ts";
import { parseName } from "../rules/names.ts";

/**
 * The original data, attributes and ordering key, plus the attributes the real service adds:
 * the attempt count, the source subscription's id and project, and the original publish time
 * (ISO 8601 with milliseconds and a +00:00 offset, as captured from the real service).
 */
export function deadLetterCopy(subscription: string, entry: Entry): { input: MessageInput; size: number } {
  const msg = entry.msg;
  const { project, id } = parseName(subscription, "subscriptions");
  const attributes: Record<string, string> = Object.assign(Object.create(null), msg.attributes, {
    CloudPubSubDeadLetterSourceDeliveryCount: String(entry.attempts),
    CloudPubSubDeadLetterSourceSubscription: id,
    CloudPubSubDeadLetterSourceSubscriptionProject: project,
    CloudPubSubDeadLetterSourceTopicPublishTime: new Date(msg.publishTime).toISOString().replace("Z", "+00:00"),
  });
  let size = msg.data.length + byteLength(msg.orderingKey);
  for (const k in attributes) size += byteLength(k) + byteLength(attributes[k]);
  return { input: { data: msg.data, attributes, orderingKey: msg.orderingKey }, size };
}

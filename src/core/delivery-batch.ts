/** What one Pull or StreamingPull response carries, decided here so every transport sends the same. */
import type { Delivery } from "./message.ts";
import type { SubscriptionResource } from "./resources.ts";

export interface StreamProperties {
  exactlyOnce: boolean;
  ordering: boolean;
}

export interface DeliveryBatch {
  deliveries: Delivery[];
  /** The real service sets delivery_attempt only on subscriptions with a dead-letter policy. */
  withAttempt: boolean;
  /** StreamingPull responses carry SubscriptionProperties; Pull responses do not. */
  properties?: StreamProperties;
}

/** Read from the live config at each response, so an update applies to open streams at once. */
export function deliveryBatch(config: SubscriptionResource, deliveries: Delivery[], stream: boolean): DeliveryBatch {
  const batch: DeliveryBatch = { deliveries, withAttempt: !!config.deadLetterPolicy };
  if (stream) batch.properties = { exactlyOnce: config.enableExactlyOnceDelivery, ordering: config.enableMessageOrdering };
  return batch;
}

/** What one Pull or StreamingPull response carries, decided here so every transport sends the same. */
import type { Delivery } from "../message.ts";
import type { SubscriptionResource } from "../resources.ts";

export interface StreamProperties {
  exactlyOnce: boolean;
  ordering: boolean;
}

/** StreamingPull's answer to the acks or modacks of one request on an exactly-once subscription. */
export interface Confirmation {
  ackIds: readonly string[];
  invalidAckIds: readonly string[];
}

export interface DeliveryBatch {
  deliveries: Delivery[];
  /** The real service sets delivery_attempt only on subscriptions with a dead-letter policy. */
  withAttempt: boolean;
  /** StreamingPull responses carry SubscriptionProperties; Pull responses do not. */
  properties?: StreamProperties;
  /** acknowledge_confirmation (field 5), exactly-once subscriptions only. */
  ackConfirmation?: Confirmation;
  /** modify_ack_deadline_confirmation (field 3), exactly-once subscriptions only. */
  modackConfirmation?: Confirmation;
}

/** Read from the live config at each response, so an update applies to open streams at once. */
export function deliveryBatch(config: SubscriptionResource, deliveries: Delivery[], stream: boolean): DeliveryBatch {
  const batch: DeliveryBatch = { deliveries, withAttempt: !!config.deadLetterPolicy };
  if (stream) batch.properties = { exactlyOnce: config.enableExactlyOnceDelivery, ordering: config.enableMessageOrdering };
  return batch;
}

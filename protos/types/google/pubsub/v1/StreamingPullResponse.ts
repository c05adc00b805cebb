// Original file: google/pubsub/v1/pubsub.proto

import type { ReceivedMessage as _google_pubsub_v1_ReceivedMessage, ReceivedMessage__Output as _google_pubsub_v1_ReceivedMessage__Output } from '../../../google/pubsub/v1/ReceivedMessage';

export interface _google_pubsub_v1_StreamingPullResponse_AcknowledgeConfirmation {
  'ackIds'?: (string)[];
  'invalidAckIds'?: (string)[];
  'unorderedAckIds'?: (string)[];
  'temporaryFailedAckIds'?: (string)[];
}

export interface _google_pubsub_v1_StreamingPullResponse_AcknowledgeConfirmation__Output {
  'ackIds'?: (string)[];
  'invalidAckIds'?: (string)[];
  'unorderedAckIds'?: (string)[];
  'temporaryFailedAckIds'?: (string)[];
}

export interface _google_pubsub_v1_StreamingPullResponse_ModifyAckDeadlineConfirmation {
  'ackIds'?: (string)[];
  'invalidAckIds'?: (string)[];
  'temporaryFailedAckIds'?: (string)[];
}

export interface _google_pubsub_v1_StreamingPullResponse_ModifyAckDeadlineConfirmation__Output {
  'ackIds'?: (string)[];
  'invalidAckIds'?: (string)[];
  'temporaryFailedAckIds'?: (string)[];
}

export interface _google_pubsub_v1_StreamingPullResponse_SubscriptionProperties {
  'exactlyOnceDeliveryEnabled'?: (boolean);
  'messageOrderingEnabled'?: (boolean);
}

export interface _google_pubsub_v1_StreamingPullResponse_SubscriptionProperties__Output {
  'exactlyOnceDeliveryEnabled'?: (boolean);
  'messageOrderingEnabled'?: (boolean);
}

export interface StreamingPullResponse {
  'receivedMessages'?: (_google_pubsub_v1_ReceivedMessage)[];
  'modifyAckDeadlineConfirmation'?: (_google_pubsub_v1_StreamingPullResponse_ModifyAckDeadlineConfirmation | null);
  'subscriptionProperties'?: (_google_pubsub_v1_StreamingPullResponse_SubscriptionProperties | null);
  'acknowledgeConfirmation'?: (_google_pubsub_v1_StreamingPullResponse_AcknowledgeConfirmation | null);
}

export interface StreamingPullResponse__Output {
  'receivedMessages'?: (_google_pubsub_v1_ReceivedMessage__Output)[];
  'modifyAckDeadlineConfirmation'?: (_google_pubsub_v1_StreamingPullResponse_ModifyAckDeadlineConfirmation__Output);
  'subscriptionProperties'?: (_google_pubsub_v1_StreamingPullResponse_SubscriptionProperties__Output);
  'acknowledgeConfirmation'?: (_google_pubsub_v1_StreamingPullResponse_AcknowledgeConfirmation__Output);
}

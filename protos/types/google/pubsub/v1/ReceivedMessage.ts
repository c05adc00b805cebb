// Original file: google/pubsub/v1/pubsub.proto

import type { PubsubMessage as _google_pubsub_v1_PubsubMessage, PubsubMessage__Output as _google_pubsub_v1_PubsubMessage__Output } from '../../../google/pubsub/v1/PubsubMessage';

export interface ReceivedMessage {
  'ackId'?: (string);
  'message'?: (_google_pubsub_v1_PubsubMessage | null);
  'deliveryAttempt'?: (number);
}

export interface ReceivedMessage__Output {
  'ackId'?: (string);
  'message'?: (_google_pubsub_v1_PubsubMessage__Output);
  'deliveryAttempt'?: (number);
}

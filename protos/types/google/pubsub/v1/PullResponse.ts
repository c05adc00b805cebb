// Original file: google/pubsub/v1/pubsub.proto

import type { ReceivedMessage as _google_pubsub_v1_ReceivedMessage, ReceivedMessage__Output as _google_pubsub_v1_ReceivedMessage__Output } from '../../../google/pubsub/v1/ReceivedMessage';

export interface PullResponse {
  'receivedMessages'?: (_google_pubsub_v1_ReceivedMessage)[];
}

export interface PullResponse__Output {
  'receivedMessages'?: (_google_pubsub_v1_ReceivedMessage__Output)[];
}

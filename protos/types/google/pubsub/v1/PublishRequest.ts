// Original file: google/pubsub/v1/pubsub.proto

import type { PubsubMessage as _google_pubsub_v1_PubsubMessage, PubsubMessage__Output as _google_pubsub_v1_PubsubMessage__Output } from '../../../google/pubsub/v1/PubsubMessage';

export interface PublishRequest {
  'topic'?: (string);
  'messages'?: (_google_pubsub_v1_PubsubMessage)[];
}

export interface PublishRequest__Output {
  'topic'?: (string);
  'messages'?: (_google_pubsub_v1_PubsubMessage__Output)[];
}

// Original file: google/pubsub/v1/pubsub.proto

import type { Topic as _google_pubsub_v1_Topic, Topic__Output as _google_pubsub_v1_Topic__Output } from '../../../google/pubsub/v1/Topic';

export interface ListTopicsResponse {
  'topics'?: (_google_pubsub_v1_Topic)[];
  'nextPageToken'?: (string);
}

export interface ListTopicsResponse__Output {
  'topics'?: (_google_pubsub_v1_Topic__Output)[];
  'nextPageToken'?: (string);
}

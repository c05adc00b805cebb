// Original file: google/pubsub/v1/pubsub.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../google/protobuf/Duration';

export interface RetryPolicy {
  'minimumBackoff'?: (_google_protobuf_Duration | null);
  'maximumBackoff'?: (_google_protobuf_Duration | null);
}

export interface RetryPolicy__Output {
  'minimumBackoff'?: (_google_protobuf_Duration__Output);
  'maximumBackoff'?: (_google_protobuf_Duration__Output);
}

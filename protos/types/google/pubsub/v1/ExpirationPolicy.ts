// Original file: google/pubsub/v1/pubsub.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../google/protobuf/Duration';

export interface ExpirationPolicy {
  'ttl'?: (_google_protobuf_Duration | null);
}

export interface ExpirationPolicy__Output {
  'ttl'?: (_google_protobuf_Duration__Output);
}

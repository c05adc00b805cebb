// Original file: google/pubsub/v1/pubsub.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface SeekRequest {
  'subscription'?: (string);
  'time'?: (_google_protobuf_Timestamp | null);
  'snapshot'?: (string);
  'target'?: "time"|"snapshot";
}

export interface SeekRequest__Output {
  'subscription'?: (string);
  'time'?: (_google_protobuf_Timestamp__Output);
  'snapshot'?: (string);
  'target'?: "time"|"snapshot";
}

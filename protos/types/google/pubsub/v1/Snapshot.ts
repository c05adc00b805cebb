// Original file: google/pubsub/v1/pubsub.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface Snapshot {
  'name'?: (string);
  'topic'?: (string);
  'expireTime'?: (_google_protobuf_Timestamp | null);
  'labels'?: ({[key: string]: string});
}

export interface Snapshot__Output {
  'name'?: (string);
  'topic'?: (string);
  'expireTime'?: (_google_protobuf_Timestamp__Output);
  'labels'?: ({[key: string]: string});
}

// Original file: google/pubsub/v1/pubsub.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface PubsubMessage {
  'data'?: (Buffer | Uint8Array | string);
  'attributes'?: ({[key: string]: string});
  'messageId'?: (string);
  'publishTime'?: (_google_protobuf_Timestamp | null);
  'orderingKey'?: (string);
}

export interface PubsubMessage__Output {
  'data'?: (Buffer);
  'attributes'?: ({[key: string]: string});
  'messageId'?: (string);
  'publishTime'?: (_google_protobuf_Timestamp__Output);
  'orderingKey'?: (string);
}

// Original file: google/pubsub/v1/pubsub.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface _google_pubsub_v1_PubsubClientTelemetry_PublishOperation {
  'hedgedAttemptCount'?: (number);
  'publishStartTime'?: (_google_protobuf_Timestamp | null);
}

export interface _google_pubsub_v1_PubsubClientTelemetry_PublishOperation__Output {
  'hedgedAttemptCount'?: (number);
  'publishStartTime'?: (_google_protobuf_Timestamp__Output);
}

export interface PubsubClientTelemetry {
  'publishOperation'?: (_google_pubsub_v1_PubsubClientTelemetry_PublishOperation | null);
  'operation'?: "publishOperation";
}

export interface PubsubClientTelemetry__Output {
  'publishOperation'?: (_google_pubsub_v1_PubsubClientTelemetry_PublishOperation__Output);
  'operation'?: "publishOperation";
}

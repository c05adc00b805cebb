// Original file: google/pubsub/v1/pubsub.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../google/protobuf/Duration';
import type { Long } from '@grpc/proto-loader';

export interface _google_pubsub_v1_CloudStorageConfig_AvroConfig {
  'writeMetadata'?: (boolean);
  'useTopicSchema'?: (boolean);
}

export interface _google_pubsub_v1_CloudStorageConfig_AvroConfig__Output {
  'writeMetadata'?: (boolean);
  'useTopicSchema'?: (boolean);
}

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_CloudStorageConfig_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  NOT_FOUND: 'NOT_FOUND',
  IN_TRANSIT_LOCATION_RESTRICTION: 'IN_TRANSIT_LOCATION_RESTRICTION',
  SCHEMA_MISMATCH: 'SCHEMA_MISMATCH',
  VERTEX_AI_LOCATION_RESTRICTION: 'VERTEX_AI_LOCATION_RESTRICTION',
} as const;

export type _google_pubsub_v1_CloudStorageConfig_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'PERMISSION_DENIED'
  | 2
  | 'NOT_FOUND'
  | 3
  | 'IN_TRANSIT_LOCATION_RESTRICTION'
  | 4
  | 'SCHEMA_MISMATCH'
  | 5
  | 'VERTEX_AI_LOCATION_RESTRICTION'
  | 6

export type _google_pubsub_v1_CloudStorageConfig_State__Output = typeof _google_pubsub_v1_CloudStorageConfig_State[keyof typeof _google_pubsub_v1_CloudStorageConfig_State]

export interface _google_pubsub_v1_CloudStorageConfig_TextConfig {
}

export interface _google_pubsub_v1_CloudStorageConfig_TextConfig__Output {
}

export interface CloudStorageConfig {
  'bucket'?: (string);
  'filenamePrefix'?: (string);
  'filenameSuffix'?: (string);
  'textConfig'?: (_google_pubsub_v1_CloudStorageConfig_TextConfig | null);
  'avroConfig'?: (_google_pubsub_v1_CloudStorageConfig_AvroConfig | null);
  'maxDuration'?: (_google_protobuf_Duration | null);
  'maxBytes'?: (number | string | Long);
  'maxMessages'?: (number | string | Long);
  'state'?: (_google_pubsub_v1_CloudStorageConfig_State);
  'filenameDatetimeFormat'?: (string);
  'serviceAccountEmail'?: (string);
  'outputFormat'?: "textConfig"|"avroConfig";
}

export interface CloudStorageConfig__Output {
  'bucket'?: (string);
  'filenamePrefix'?: (string);
  'filenameSuffix'?: (string);
  'textConfig'?: (_google_pubsub_v1_CloudStorageConfig_TextConfig__Output);
  'avroConfig'?: (_google_pubsub_v1_CloudStorageConfig_AvroConfig__Output);
  'maxDuration'?: (_google_protobuf_Duration__Output);
  'maxBytes'?: (number);
  'maxMessages'?: (number);
  'state'?: (_google_pubsub_v1_CloudStorageConfig_State__Output);
  'filenameDatetimeFormat'?: (string);
  'serviceAccountEmail'?: (string);
  'outputFormat'?: "textConfig"|"avroConfig";
}

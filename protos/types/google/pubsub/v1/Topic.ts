// Original file: google/pubsub/v1/pubsub.proto

import type { MessageStoragePolicy as _google_pubsub_v1_MessageStoragePolicy, MessageStoragePolicy__Output as _google_pubsub_v1_MessageStoragePolicy__Output } from '../../../google/pubsub/v1/MessageStoragePolicy';
import type { SchemaSettings as _google_pubsub_v1_SchemaSettings, SchemaSettings__Output as _google_pubsub_v1_SchemaSettings__Output } from '../../../google/pubsub/v1/SchemaSettings';
import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../google/protobuf/Duration';
import type { IngestionDataSourceSettings as _google_pubsub_v1_IngestionDataSourceSettings, IngestionDataSourceSettings__Output as _google_pubsub_v1_IngestionDataSourceSettings__Output } from '../../../google/pubsub/v1/IngestionDataSourceSettings';
import type { MessageTransform as _google_pubsub_v1_MessageTransform, MessageTransform__Output as _google_pubsub_v1_MessageTransform__Output } from '../../../google/pubsub/v1/MessageTransform';

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_Topic_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  INGESTION_RESOURCE_ERROR: 'INGESTION_RESOURCE_ERROR',
} as const;

export type _google_pubsub_v1_Topic_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'INGESTION_RESOURCE_ERROR'
  | 2

export type _google_pubsub_v1_Topic_State__Output = typeof _google_pubsub_v1_Topic_State[keyof typeof _google_pubsub_v1_Topic_State]

export interface Topic {
  'name'?: (string);
  'labels'?: ({[key: string]: string});
  'messageStoragePolicy'?: (_google_pubsub_v1_MessageStoragePolicy | null);
  'kmsKeyName'?: (string);
  'schemaSettings'?: (_google_pubsub_v1_SchemaSettings | null);
  'satisfiesPzs'?: (boolean);
  'messageRetentionDuration'?: (_google_protobuf_Duration | null);
  'state'?: (_google_pubsub_v1_Topic_State);
  'ingestionDataSourceSettings'?: (_google_pubsub_v1_IngestionDataSourceSettings | null);
  'messageTransforms'?: (_google_pubsub_v1_MessageTransform)[];
  'tags'?: ({[key: string]: string});
}

export interface Topic__Output {
  'name'?: (string);
  'labels'?: ({[key: string]: string});
  'messageStoragePolicy'?: (_google_pubsub_v1_MessageStoragePolicy__Output);
  'kmsKeyName'?: (string);
  'schemaSettings'?: (_google_pubsub_v1_SchemaSettings__Output);
  'satisfiesPzs'?: (boolean);
  'messageRetentionDuration'?: (_google_protobuf_Duration__Output);
  'state'?: (_google_pubsub_v1_Topic_State__Output);
  'ingestionDataSourceSettings'?: (_google_pubsub_v1_IngestionDataSourceSettings__Output);
  'messageTransforms'?: (_google_pubsub_v1_MessageTransform__Output)[];
  'tags'?: ({[key: string]: string});
}

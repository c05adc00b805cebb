// Original file: google/pubsub/v1/pubsub.proto


// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_BigQueryConfig_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  NOT_FOUND: 'NOT_FOUND',
  SCHEMA_MISMATCH: 'SCHEMA_MISMATCH',
  IN_TRANSIT_LOCATION_RESTRICTION: 'IN_TRANSIT_LOCATION_RESTRICTION',
  VERTEX_AI_LOCATION_RESTRICTION: 'VERTEX_AI_LOCATION_RESTRICTION',
} as const;

export type _google_pubsub_v1_BigQueryConfig_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'PERMISSION_DENIED'
  | 2
  | 'NOT_FOUND'
  | 3
  | 'SCHEMA_MISMATCH'
  | 4
  | 'IN_TRANSIT_LOCATION_RESTRICTION'
  | 5
  | 'VERTEX_AI_LOCATION_RESTRICTION'
  | 6

export type _google_pubsub_v1_BigQueryConfig_State__Output = typeof _google_pubsub_v1_BigQueryConfig_State[keyof typeof _google_pubsub_v1_BigQueryConfig_State]

export interface BigQueryConfig {
  'table'?: (string);
  'useTopicSchema'?: (boolean);
  'writeMetadata'?: (boolean);
  'dropUnknownFields'?: (boolean);
  'state'?: (_google_pubsub_v1_BigQueryConfig_State);
  'useTableSchema'?: (boolean);
  'serviceAccountEmail'?: (string);
}

export interface BigQueryConfig__Output {
  'table'?: (string);
  'useTopicSchema'?: (boolean);
  'writeMetadata'?: (boolean);
  'dropUnknownFields'?: (boolean);
  'state'?: (_google_pubsub_v1_BigQueryConfig_State__Output);
  'useTableSchema'?: (boolean);
  'serviceAccountEmail'?: (string);
}

// Original file: google/pubsub/v1/pubsub.proto


export interface _google_pubsub_v1_BigtableConfig_ColumnFamilyMapping {
  'rowKeySchema'?: (_google_pubsub_v1_BigtableConfig_ColumnFamilyMapping_RowKeySchema | null);
  'delimitedKey'?: (_google_pubsub_v1_BigtableConfig_ColumnFamilyMapping_DelimitedKey | null);
  'keyDefinition'?: "rowKeySchema"|"delimitedKey";
}

export interface _google_pubsub_v1_BigtableConfig_ColumnFamilyMapping__Output {
  'rowKeySchema'?: (_google_pubsub_v1_BigtableConfig_ColumnFamilyMapping_RowKeySchema__Output);
  'delimitedKey'?: (_google_pubsub_v1_BigtableConfig_ColumnFamilyMapping_DelimitedKey__Output);
  'keyDefinition'?: "rowKeySchema"|"delimitedKey";
}

export interface _google_pubsub_v1_BigtableConfig_ColumnFamilyMapping_DelimitedKey {
  'keyFields'?: (string)[];
  'delimiter'?: (Buffer | Uint8Array | string);
}

export interface _google_pubsub_v1_BigtableConfig_ColumnFamilyMapping_DelimitedKey__Output {
  'keyFields'?: (string)[];
  'delimiter'?: (Buffer);
}

export interface _google_pubsub_v1_BigtableConfig_ColumnFamilyMapping_RowKeySchema {
}

export interface _google_pubsub_v1_BigtableConfig_ColumnFamilyMapping_RowKeySchema__Output {
}

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_BigtableConfig_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  NOT_FOUND: 'NOT_FOUND',
  APP_PROFILE_MISCONFIGURED: 'APP_PROFILE_MISCONFIGURED',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  SCHEMA_MISMATCH: 'SCHEMA_MISMATCH',
  IN_TRANSIT_LOCATION_RESTRICTION: 'IN_TRANSIT_LOCATION_RESTRICTION',
  VERTEX_AI_LOCATION_RESTRICTION: 'VERTEX_AI_LOCATION_RESTRICTION',
} as const;

export type _google_pubsub_v1_BigtableConfig_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'NOT_FOUND'
  | 2
  | 'APP_PROFILE_MISCONFIGURED'
  | 3
  | 'PERMISSION_DENIED'
  | 4
  | 'SCHEMA_MISMATCH'
  | 5
  | 'IN_TRANSIT_LOCATION_RESTRICTION'
  | 6
  | 'VERTEX_AI_LOCATION_RESTRICTION'
  | 7

export type _google_pubsub_v1_BigtableConfig_State__Output = typeof _google_pubsub_v1_BigtableConfig_State[keyof typeof _google_pubsub_v1_BigtableConfig_State]

export interface BigtableConfig {
  'table'?: (string);
  'appProfileId'?: (string);
  'serviceAccountEmail'?: (string);
  'state'?: (_google_pubsub_v1_BigtableConfig_State);
  'writeMetadata'?: (boolean);
  'columnFamilyMapping'?: (_google_pubsub_v1_BigtableConfig_ColumnFamilyMapping | null);
  'messageMapping'?: "columnFamilyMapping";
}

export interface BigtableConfig__Output {
  'table'?: (string);
  'appProfileId'?: (string);
  'serviceAccountEmail'?: (string);
  'state'?: (_google_pubsub_v1_BigtableConfig_State__Output);
  'writeMetadata'?: (boolean);
  'columnFamilyMapping'?: (_google_pubsub_v1_BigtableConfig_ColumnFamilyMapping__Output);
  'messageMapping'?: "columnFamilyMapping";
}

// Original file: google/pubsub/v1/schema.proto

export const SchemaView = {
  SCHEMA_VIEW_UNSPECIFIED: 'SCHEMA_VIEW_UNSPECIFIED',
  BASIC: 'BASIC',
  FULL: 'FULL',
} as const;

export type SchemaView =
  | 'SCHEMA_VIEW_UNSPECIFIED'
  | 0
  | 'BASIC'
  | 1
  | 'FULL'
  | 2

export type SchemaView__Output = typeof SchemaView[keyof typeof SchemaView]

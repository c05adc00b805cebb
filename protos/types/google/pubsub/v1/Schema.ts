// Original file: google/pubsub/v1/schema.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { CompiledProtoSchema as _google_pubsub_v1_CompiledProtoSchema, CompiledProtoSchema__Output as _google_pubsub_v1_CompiledProtoSchema__Output } from '../../../google/pubsub/v1/CompiledProtoSchema';

// Original file: google/pubsub/v1/schema.proto

export const _google_pubsub_v1_Schema_Type = {
  TYPE_UNSPECIFIED: 'TYPE_UNSPECIFIED',
  PROTOCOL_BUFFER: 'PROTOCOL_BUFFER',
  AVRO: 'AVRO',
} as const;

export type _google_pubsub_v1_Schema_Type =
  | 'TYPE_UNSPECIFIED'
  | 0
  | 'PROTOCOL_BUFFER'
  | 1
  | 'AVRO'
  | 2

export type _google_pubsub_v1_Schema_Type__Output = typeof _google_pubsub_v1_Schema_Type[keyof typeof _google_pubsub_v1_Schema_Type]

export interface Schema {
  'name'?: (string);
  'type'?: (_google_pubsub_v1_Schema_Type);
  'definition'?: (string);
  'revisionId'?: (string);
  'revisionCreateTime'?: (_google_protobuf_Timestamp | null);
  'compiledProtoSchema'?: (_google_pubsub_v1_CompiledProtoSchema | null);
  'configuration'?: "compiledProtoSchema";
}

export interface Schema__Output {
  'name'?: (string);
  'type'?: (_google_pubsub_v1_Schema_Type__Output);
  'definition'?: (string);
  'revisionId'?: (string);
  'revisionCreateTime'?: (_google_protobuf_Timestamp__Output);
  'compiledProtoSchema'?: (_google_pubsub_v1_CompiledProtoSchema__Output);
  'configuration'?: "compiledProtoSchema";
}

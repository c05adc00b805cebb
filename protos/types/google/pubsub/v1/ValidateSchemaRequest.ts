// Original file: google/pubsub/v1/schema.proto

import type { Schema as _google_pubsub_v1_Schema, Schema__Output as _google_pubsub_v1_Schema__Output } from '../../../google/pubsub/v1/Schema';

export interface ValidateSchemaRequest {
  'parent'?: (string);
  'schema'?: (_google_pubsub_v1_Schema | null);
}

export interface ValidateSchemaRequest__Output {
  'parent'?: (string);
  'schema'?: (_google_pubsub_v1_Schema__Output);
}

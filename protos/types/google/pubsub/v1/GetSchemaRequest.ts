// Original file: google/pubsub/v1/schema.proto

import type { SchemaView as _google_pubsub_v1_SchemaView, SchemaView__Output as _google_pubsub_v1_SchemaView__Output } from '../../../google/pubsub/v1/SchemaView';

export interface GetSchemaRequest {
  'name'?: (string);
  'view'?: (_google_pubsub_v1_SchemaView);
}

export interface GetSchemaRequest__Output {
  'name'?: (string);
  'view'?: (_google_pubsub_v1_SchemaView__Output);
}

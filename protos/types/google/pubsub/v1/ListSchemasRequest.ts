// Original file: google/pubsub/v1/schema.proto

import type { SchemaView as _google_pubsub_v1_SchemaView, SchemaView__Output as _google_pubsub_v1_SchemaView__Output } from '../../../google/pubsub/v1/SchemaView';

export interface ListSchemasRequest {
  'parent'?: (string);
  'view'?: (_google_pubsub_v1_SchemaView);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListSchemasRequest__Output {
  'parent'?: (string);
  'view'?: (_google_pubsub_v1_SchemaView__Output);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

// Original file: google/pubsub/v1/schema.proto

import type { SchemaView as _google_pubsub_v1_SchemaView, SchemaView__Output as _google_pubsub_v1_SchemaView__Output } from '../../../google/pubsub/v1/SchemaView';

export interface ListSchemaRevisionsRequest {
  'name'?: (string);
  'view'?: (_google_pubsub_v1_SchemaView);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListSchemaRevisionsRequest__Output {
  'name'?: (string);
  'view'?: (_google_pubsub_v1_SchemaView__Output);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

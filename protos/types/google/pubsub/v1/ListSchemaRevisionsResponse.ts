// Original file: google/pubsub/v1/schema.proto

import type { Schema as _google_pubsub_v1_Schema, Schema__Output as _google_pubsub_v1_Schema__Output } from '../../../google/pubsub/v1/Schema';

export interface ListSchemaRevisionsResponse {
  'schemas'?: (_google_pubsub_v1_Schema)[];
  'nextPageToken'?: (string);
}

export interface ListSchemaRevisionsResponse__Output {
  'schemas'?: (_google_pubsub_v1_Schema__Output)[];
  'nextPageToken'?: (string);
}

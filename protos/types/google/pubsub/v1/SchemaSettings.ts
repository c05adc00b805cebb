// Original file: google/pubsub/v1/pubsub.proto

import type { Encoding as _google_pubsub_v1_Encoding, Encoding__Output as _google_pubsub_v1_Encoding__Output } from '../../../google/pubsub/v1/Encoding';

export interface SchemaSettings {
  'schema'?: (string);
  'encoding'?: (_google_pubsub_v1_Encoding);
  'firstRevisionId'?: (string);
  'lastRevisionId'?: (string);
}

export interface SchemaSettings__Output {
  'schema'?: (string);
  'encoding'?: (_google_pubsub_v1_Encoding__Output);
  'firstRevisionId'?: (string);
  'lastRevisionId'?: (string);
}

// Original file: google/pubsub/v1/schema.proto

import type { Schema as _google_pubsub_v1_Schema, Schema__Output as _google_pubsub_v1_Schema__Output } from '../../../google/pubsub/v1/Schema';
import type { Encoding as _google_pubsub_v1_Encoding, Encoding__Output as _google_pubsub_v1_Encoding__Output } from '../../../google/pubsub/v1/Encoding';

export interface ValidateMessageRequest {
  'parent'?: (string);
  'name'?: (string);
  'schema'?: (_google_pubsub_v1_Schema | null);
  'message'?: (Buffer | Uint8Array | string);
  'encoding'?: (_google_pubsub_v1_Encoding);
  'schemaSpec'?: "name"|"schema";
}

export interface ValidateMessageRequest__Output {
  'parent'?: (string);
  'name'?: (string);
  'schema'?: (_google_pubsub_v1_Schema__Output);
  'message'?: (Buffer);
  'encoding'?: (_google_pubsub_v1_Encoding__Output);
  'schemaSpec'?: "name"|"schema";
}

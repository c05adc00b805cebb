// Original file: google/pubsub/v1/pubsub.proto

import type { Topic as _google_pubsub_v1_Topic, Topic__Output as _google_pubsub_v1_Topic__Output } from '../../../google/pubsub/v1/Topic';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask';

export interface UpdateTopicRequest {
  'topic'?: (_google_pubsub_v1_Topic | null);
  'updateMask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateTopicRequest__Output {
  'topic'?: (_google_pubsub_v1_Topic__Output);
  'updateMask'?: (_google_protobuf_FieldMask__Output);
}

// Original file: google/pubsub/v1/pubsub.proto

import type { Snapshot as _google_pubsub_v1_Snapshot, Snapshot__Output as _google_pubsub_v1_Snapshot__Output } from '../../../google/pubsub/v1/Snapshot';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask';

export interface UpdateSnapshotRequest {
  'snapshot'?: (_google_pubsub_v1_Snapshot | null);
  'updateMask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateSnapshotRequest__Output {
  'snapshot'?: (_google_pubsub_v1_Snapshot__Output);
  'updateMask'?: (_google_protobuf_FieldMask__Output);
}

// Original file: google/pubsub/v1/pubsub.proto


export interface DeleteSnapshotRequest {
  'snapshot'?: (string);
}

export interface DeleteSnapshotRequest__Output {
  'snapshot'?: (string);
}

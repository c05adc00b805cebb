// Original file: google/pubsub/v1/pubsub.proto


export interface GetSnapshotRequest {
  'snapshot'?: (string);
}

export interface GetSnapshotRequest__Output {
  'snapshot'?: (string);
}

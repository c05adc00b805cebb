// Original file: google/pubsub/v1/pubsub.proto


export interface ListSnapshotsRequest {
  'project'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListSnapshotsRequest__Output {
  'project'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

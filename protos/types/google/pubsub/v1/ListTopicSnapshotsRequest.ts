// Original file: google/pubsub/v1/pubsub.proto


export interface ListTopicSnapshotsRequest {
  'topic'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListTopicSnapshotsRequest__Output {
  'topic'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

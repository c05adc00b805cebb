// Original file: google/pubsub/v1/pubsub.proto


export interface ListTopicSnapshotsResponse {
  'snapshots'?: (string)[];
  'nextPageToken'?: (string);
}

export interface ListTopicSnapshotsResponse__Output {
  'snapshots'?: (string)[];
  'nextPageToken'?: (string);
}

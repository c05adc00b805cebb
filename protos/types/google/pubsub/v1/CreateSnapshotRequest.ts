// Original file: google/pubsub/v1/pubsub.proto


export interface CreateSnapshotRequest {
  'name'?: (string);
  'subscription'?: (string);
  'labels'?: ({[key: string]: string});
  'tags'?: ({[key: string]: string});
}

export interface CreateSnapshotRequest__Output {
  'name'?: (string);
  'subscription'?: (string);
  'labels'?: ({[key: string]: string});
  'tags'?: ({[key: string]: string});
}

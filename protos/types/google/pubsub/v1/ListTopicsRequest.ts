// Original file: google/pubsub/v1/pubsub.proto


export interface ListTopicsRequest {
  'project'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListTopicsRequest__Output {
  'project'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

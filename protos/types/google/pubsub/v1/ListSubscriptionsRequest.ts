// Original file: google/pubsub/v1/pubsub.proto


export interface ListSubscriptionsRequest {
  'project'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListSubscriptionsRequest__Output {
  'project'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

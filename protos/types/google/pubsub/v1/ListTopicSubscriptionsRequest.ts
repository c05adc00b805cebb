// Original file: google/pubsub/v1/pubsub.proto


export interface ListTopicSubscriptionsRequest {
  'topic'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

export interface ListTopicSubscriptionsRequest__Output {
  'topic'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
}

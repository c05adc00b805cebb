// Original file: google/pubsub/v1/pubsub.proto


export interface ListTopicSubscriptionsResponse {
  'subscriptions'?: (string)[];
  'nextPageToken'?: (string);
}

export interface ListTopicSubscriptionsResponse__Output {
  'subscriptions'?: (string)[];
  'nextPageToken'?: (string);
}

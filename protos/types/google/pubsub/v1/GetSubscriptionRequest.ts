// Original file: google/pubsub/v1/pubsub.proto


export interface GetSubscriptionRequest {
  'subscription'?: (string);
}

export interface GetSubscriptionRequest__Output {
  'subscription'?: (string);
}

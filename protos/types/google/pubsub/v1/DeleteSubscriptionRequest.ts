// Original file: google/pubsub/v1/pubsub.proto


export interface DeleteSubscriptionRequest {
  'subscription'?: (string);
}

export interface DeleteSubscriptionRequest__Output {
  'subscription'?: (string);
}

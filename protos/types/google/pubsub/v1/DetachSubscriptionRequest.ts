// Original file: google/pubsub/v1/pubsub.proto


export interface DetachSubscriptionRequest {
  'subscription'?: (string);
}

export interface DetachSubscriptionRequest__Output {
  'subscription'?: (string);
}

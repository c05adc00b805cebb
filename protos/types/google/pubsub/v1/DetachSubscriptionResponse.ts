// Original file: google/pubsub/v1/pubsub.proto


export interface DetachSubscriptionResponse {
}

export interface DetachSubscriptionResponse__Output {
}

// Original file: google/pubsub/v1/schema.proto


export interface ValidateMessageResponse {
}

export interface ValidateMessageResponse__Output {
}

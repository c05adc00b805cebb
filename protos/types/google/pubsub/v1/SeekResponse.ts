// Original file: google/pubsub/v1/pubsub.proto


export interface SeekResponse {
}

export interface SeekResponse__Output {
}

// Original file: google/pubsub/v1/pubsub.proto


export interface PublishResponse {
  'messageIds'?: (string)[];
}

export interface PublishResponse__Output {
  'messageIds'?: (string)[];
}

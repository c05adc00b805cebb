// Original file: google/pubsub/v1/pubsub.proto


export interface GetTopicRequest {
  'topic'?: (string);
}

export interface GetTopicRequest__Output {
  'topic'?: (string);
}

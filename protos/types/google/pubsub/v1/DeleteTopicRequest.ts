// Original file: google/pubsub/v1/pubsub.proto


export interface DeleteTopicRequest {
  'topic'?: (string);
}

export interface DeleteTopicRequest__Output {
  'topic'?: (string);
}

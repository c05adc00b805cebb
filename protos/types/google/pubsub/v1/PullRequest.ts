// Original file: google/pubsub/v1/pubsub.proto


export interface PullRequest {
  'subscription'?: (string);
  'returnImmediately'?: (boolean);
  'maxMessages'?: (number);
}

export interface PullRequest__Output {
  'subscription'?: (string);
  'returnImmediately'?: (boolean);
  'maxMessages'?: (number);
}

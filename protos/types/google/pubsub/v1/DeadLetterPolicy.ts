// Original file: google/pubsub/v1/pubsub.proto


export interface DeadLetterPolicy {
  'deadLetterTopic'?: (string);
  'maxDeliveryAttempts'?: (number);
}

export interface DeadLetterPolicy__Output {
  'deadLetterTopic'?: (string);
  'maxDeliveryAttempts'?: (number);
}

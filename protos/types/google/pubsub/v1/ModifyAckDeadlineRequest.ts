// Original file: google/pubsub/v1/pubsub.proto


export interface ModifyAckDeadlineRequest {
  'subscription'?: (string);
  'ackDeadlineSeconds'?: (number);
  'ackIds'?: (string)[];
}

export interface ModifyAckDeadlineRequest__Output {
  'subscription'?: (string);
  'ackDeadlineSeconds'?: (number);
  'ackIds'?: (string)[];
}

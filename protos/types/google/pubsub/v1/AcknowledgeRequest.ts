// Original file: google/pubsub/v1/pubsub.proto


export interface AcknowledgeRequest {
  'subscription'?: (string);
  'ackIds'?: (string)[];
}

export interface AcknowledgeRequest__Output {
  'subscription'?: (string);
  'ackIds'?: (string)[];
}

// Original file: google/pubsub/v1/pubsub.proto

import type { Long } from '@grpc/proto-loader';

export interface StreamingPullRequest {
  'subscription'?: (string);
  'ackIds'?: (string)[];
  'modifyDeadlineSeconds'?: (number)[];
  'modifyDeadlineAckIds'?: (string)[];
  'streamAckDeadlineSeconds'?: (number);
  'clientId'?: (string);
  'maxOutstandingMessages'?: (number | string | Long);
  'maxOutstandingBytes'?: (number | string | Long);
  'protocolVersion'?: (number | string | Long);
}

export interface StreamingPullRequest__Output {
  'subscription'?: (string);
  'ackIds'?: (string)[];
  'modifyDeadlineSeconds'?: (number)[];
  'modifyDeadlineAckIds'?: (string)[];
  'streamAckDeadlineSeconds'?: (number);
  'clientId'?: (string);
  'maxOutstandingMessages'?: (number);
  'maxOutstandingBytes'?: (number);
  'protocolVersion'?: (number);
}

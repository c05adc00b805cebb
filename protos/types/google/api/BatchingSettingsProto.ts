// Original file: google/api/client.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../google/protobuf/Duration';
import type { FlowControlLimitExceededBehaviorProto as _google_api_FlowControlLimitExceededBehaviorProto, FlowControlLimitExceededBehaviorProto__Output as _google_api_FlowControlLimitExceededBehaviorProto__Output } from '../../google/api/FlowControlLimitExceededBehaviorProto';
import type { Long } from '@grpc/proto-loader';

export interface BatchingSettingsProto {
  'elementCountThreshold'?: (number);
  'requestByteThreshold'?: (number | string | Long);
  'delayThreshold'?: (_google_protobuf_Duration | null);
  'elementCountLimit'?: (number);
  'requestByteLimit'?: (number);
  'flowControlElementLimit'?: (number);
  'flowControlByteLimit'?: (number);
  'flowControlLimitExceededBehavior'?: (_google_api_FlowControlLimitExceededBehaviorProto);
}

export interface BatchingSettingsProto__Output {
  'elementCountThreshold'?: (number);
  'requestByteThreshold'?: (number);
  'delayThreshold'?: (_google_protobuf_Duration__Output);
  'elementCountLimit'?: (number);
  'requestByteLimit'?: (number);
  'flowControlElementLimit'?: (number);
  'flowControlByteLimit'?: (number);
  'flowControlLimitExceededBehavior'?: (_google_api_FlowControlLimitExceededBehaviorProto__Output);
}

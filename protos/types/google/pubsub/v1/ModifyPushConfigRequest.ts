// Original file: google/pubsub/v1/pubsub.proto

import type { PushConfig as _google_pubsub_v1_PushConfig, PushConfig__Output as _google_pubsub_v1_PushConfig__Output } from '../../../google/pubsub/v1/PushConfig';

export interface ModifyPushConfigRequest {
  'subscription'?: (string);
  'pushConfig'?: (_google_pubsub_v1_PushConfig | null);
}

export interface ModifyPushConfigRequest__Output {
  'subscription'?: (string);
  'pushConfig'?: (_google_pubsub_v1_PushConfig__Output);
}

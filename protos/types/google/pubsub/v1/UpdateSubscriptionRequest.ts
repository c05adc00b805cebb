// Original file: google/pubsub/v1/pubsub.proto

import type { Subscription as _google_pubsub_v1_Subscription, Subscription__Output as _google_pubsub_v1_Subscription__Output } from '../../../google/pubsub/v1/Subscription';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask';

export interface UpdateSubscriptionRequest {
  'subscription'?: (_google_pubsub_v1_Subscription | null);
  'updateMask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateSubscriptionRequest__Output {
  'subscription'?: (_google_pubsub_v1_Subscription__Output);
  'updateMask'?: (_google_protobuf_FieldMask__Output);
}

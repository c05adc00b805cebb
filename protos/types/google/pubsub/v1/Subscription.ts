// Original file: google/pubsub/v1/pubsub.proto

import type { PushConfig as _google_pubsub_v1_PushConfig, PushConfig__Output as _google_pubsub_v1_PushConfig__Output } from '../../../google/pubsub/v1/PushConfig';
import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../google/protobuf/Duration';
import type { ExpirationPolicy as _google_pubsub_v1_ExpirationPolicy, ExpirationPolicy__Output as _google_pubsub_v1_ExpirationPolicy__Output } from '../../../google/pubsub/v1/ExpirationPolicy';
import type { DeadLetterPolicy as _google_pubsub_v1_DeadLetterPolicy, DeadLetterPolicy__Output as _google_pubsub_v1_DeadLetterPolicy__Output } from '../../../google/pubsub/v1/DeadLetterPolicy';
import type { RetryPolicy as _google_pubsub_v1_RetryPolicy, RetryPolicy__Output as _google_pubsub_v1_RetryPolicy__Output } from '../../../google/pubsub/v1/RetryPolicy';
import type { BigQueryConfig as _google_pubsub_v1_BigQueryConfig, BigQueryConfig__Output as _google_pubsub_v1_BigQueryConfig__Output } from '../../../google/pubsub/v1/BigQueryConfig';
import type { CloudStorageConfig as _google_pubsub_v1_CloudStorageConfig, CloudStorageConfig__Output as _google_pubsub_v1_CloudStorageConfig__Output } from '../../../google/pubsub/v1/CloudStorageConfig';
import type { MessageTransform as _google_pubsub_v1_MessageTransform, MessageTransform__Output as _google_pubsub_v1_MessageTransform__Output } from '../../../google/pubsub/v1/MessageTransform';
import type { BigtableConfig as _google_pubsub_v1_BigtableConfig, BigtableConfig__Output as _google_pubsub_v1_BigtableConfig__Output } from '../../../google/pubsub/v1/BigtableConfig';

export interface _google_pubsub_v1_Subscription_AnalyticsHubSubscriptionInfo {
  'listing'?: (string);
  'subscription'?: (string);
}

export interface _google_pubsub_v1_Subscription_AnalyticsHubSubscriptionInfo__Output {
  'listing'?: (string);
  'subscription'?: (string);
}

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_Subscription_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  RESOURCE_ERROR: 'RESOURCE_ERROR',
} as const;

export type _google_pubsub_v1_Subscription_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'RESOURCE_ERROR'
  | 2

export type _google_pubsub_v1_Subscription_State__Output = typeof _google_pubsub_v1_Subscription_State[keyof typeof _google_pubsub_v1_Subscription_State]

export interface Subscription {
  'name'?: (string);
  'topic'?: (string);
  'pushConfig'?: (_google_pubsub_v1_PushConfig | null);
  'ackDeadlineSeconds'?: (number);
  'retainAckedMessages'?: (boolean);
  'messageRetentionDuration'?: (_google_protobuf_Duration | null);
  'labels'?: ({[key: string]: string});
  'enableMessageOrdering'?: (boolean);
  'expirationPolicy'?: (_google_pubsub_v1_ExpirationPolicy | null);
  'filter'?: (string);
  'deadLetterPolicy'?: (_google_pubsub_v1_DeadLetterPolicy | null);
  'retryPolicy'?: (_google_pubsub_v1_RetryPolicy | null);
  'detached'?: (boolean);
  'enableExactlyOnceDelivery'?: (boolean);
  'topicMessageRetentionDuration'?: (_google_protobuf_Duration | null);
  'bigqueryConfig'?: (_google_pubsub_v1_BigQueryConfig | null);
  'state'?: (_google_pubsub_v1_Subscription_State);
  'cloudStorageConfig'?: (_google_pubsub_v1_CloudStorageConfig | null);
  'analyticsHubSubscriptionInfo'?: (_google_pubsub_v1_Subscription_AnalyticsHubSubscriptionInfo | null);
  'messageTransforms'?: (_google_pubsub_v1_MessageTransform)[];
  'tags'?: ({[key: string]: string});
  'bigtableConfig'?: (_google_pubsub_v1_BigtableConfig | null);
}

export interface Subscription__Output {
  'name'?: (string);
  'topic'?: (string);
  'pushConfig'?: (_google_pubsub_v1_PushConfig__Output);
  'ackDeadlineSeconds'?: (number);
  'retainAckedMessages'?: (boolean);
  'messageRetentionDuration'?: (_google_protobuf_Duration__Output);
  'labels'?: ({[key: string]: string});
  'enableMessageOrdering'?: (boolean);
  'expirationPolicy'?: (_google_pubsub_v1_ExpirationPolicy__Output);
  'filter'?: (string);
  'deadLetterPolicy'?: (_google_pubsub_v1_DeadLetterPolicy__Output);
  'retryPolicy'?: (_google_pubsub_v1_RetryPolicy__Output);
  'detached'?: (boolean);
  'enableExactlyOnceDelivery'?: (boolean);
  'topicMessageRetentionDuration'?: (_google_protobuf_Duration__Output);
  'bigqueryConfig'?: (_google_pubsub_v1_BigQueryConfig__Output);
  'state'?: (_google_pubsub_v1_Subscription_State__Output);
  'cloudStorageConfig'?: (_google_pubsub_v1_CloudStorageConfig__Output);
  'analyticsHubSubscriptionInfo'?: (_google_pubsub_v1_Subscription_AnalyticsHubSubscriptionInfo__Output);
  'messageTransforms'?: (_google_pubsub_v1_MessageTransform__Output)[];
  'tags'?: ({[key: string]: string});
  'bigtableConfig'?: (_google_pubsub_v1_BigtableConfig__Output);
}

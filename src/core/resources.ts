/**
 * Topic and subscription resources as the core keeps them: proto field names in camelCase,
 * durations in milliseconds. Fields the core gives no behaviour are kept as given and echoed.
 */
export interface TopicResource {
  name: string;
  labels: Record<string, string>;
  /** Unset means retention is governed by the subscriptions. */
  messageRetentionDuration?: number;
  kmsKeyName?: string;
  messageStoragePolicy?: unknown;
  schemaSettings?: unknown;
  satisfiesPzs?: boolean;
  ingestionDataSourceSettings?: unknown;
  messageTransforms?: unknown[];
  state?: string;
  /** Input only: checked on create, never kept or returned. */
  tags?: Record<string, string>;
}

export interface DeadLetterPolicy {
  deadLetterTopic: string;
  maxDeliveryAttempts: number;
}

export interface RetryPolicy {
  minimumBackoff?: number;
  maximumBackoff?: number;
}

export interface SubscriptionResource {
  name: string;
  topic: string;
  pushConfig?: Record<string, unknown>;
  bigqueryConfig?: unknown;
  cloudStorageConfig?: unknown;
  bigtableConfig?: unknown;
  ackDeadlineSeconds: number;
  retainAckedMessages: boolean;
  messageRetentionDuration: number;
  labels: Record<string, string>;
  enableMessageOrdering: boolean;
  /** `ttl` unset (with the policy set) means the subscription never expires. */
  expirationPolicy?: { ttl?: number };
  filter: string;
  deadLetterPolicy?: DeadLetterPolicy;
  retryPolicy?: RetryPolicy;
  detached: boolean;
  enableExactlyOnceDelivery: boolean;
  topicMessageRetentionDuration?: number;
  state?: string;
  analyticsHubSubscriptionInfo?: unknown;
  messageTransforms?: unknown[];
  /** Input only: checked on create, never kept or returned. */
  tags?: Record<string, string>;
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 60 * MINUTE;

export const SUBSCRIPTION_DEFAULTS = {
  ackDeadlineSeconds: 10,
  messageRetentionDuration: 7 * DAY,
  expirationTtl: 31 * DAY,
  maxDeliveryAttempts: 5,
  minimumBackoff: 10 * SECOND,
  maximumBackoff: 600 * SECOND,
} as const;

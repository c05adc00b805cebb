// Original file: google/pubsub/v1/pubsub.proto

import type { PlatformLogsSettings as _google_pubsub_v1_PlatformLogsSettings, PlatformLogsSettings__Output as _google_pubsub_v1_PlatformLogsSettings__Output } from '../../../google/pubsub/v1/PlatformLogsSettings';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';

export interface _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_AvroFormat {
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_AvroFormat__Output {
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis_State);
  'streamArn'?: (string);
  'consumerArn'?: (string);
  'awsRoleArn'?: (string);
  'gcpServiceAccount'?: (string);
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis__Output {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis_State__Output);
  'streamArn'?: (string);
  'consumerArn'?: (string);
  'awsRoleArn'?: (string);
  'gcpServiceAccount'?: (string);
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_AwsMsk {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_AwsMsk_State);
  'clusterArn'?: (string);
  'topic'?: (string);
  'awsRoleArn'?: (string);
  'gcpServiceAccount'?: (string);
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_AwsMsk__Output {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_AwsMsk_State__Output);
  'clusterArn'?: (string);
  'topic'?: (string);
  'awsRoleArn'?: (string);
  'gcpServiceAccount'?: (string);
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs_State);
  'resourceGroup'?: (string);
  'namespace'?: (string);
  'eventHub'?: (string);
  'clientId'?: (string);
  'tenantId'?: (string);
  'subscriptionId'?: (string);
  'gcpServiceAccount'?: (string);
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs__Output {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs_State__Output);
  'resourceGroup'?: (string);
  'namespace'?: (string);
  'eventHub'?: (string);
  'clientId'?: (string);
  'tenantId'?: (string);
  'subscriptionId'?: (string);
  'gcpServiceAccount'?: (string);
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_State);
  'bucket'?: (string);
  'textFormat'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_TextFormat | null);
  'avroFormat'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_AvroFormat | null);
  'pubsubAvroFormat'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_PubSubAvroFormat | null);
  'minimumObjectCreateTime'?: (_google_protobuf_Timestamp | null);
  'matchGlob'?: (string);
  'inputFormat'?: "textFormat"|"avroFormat"|"pubsubAvroFormat";
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage__Output {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_State__Output);
  'bucket'?: (string);
  'textFormat'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_TextFormat__Output);
  'avroFormat'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_AvroFormat__Output);
  'pubsubAvroFormat'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_PubSubAvroFormat__Output);
  'minimumObjectCreateTime'?: (_google_protobuf_Timestamp__Output);
  'matchGlob'?: (string);
  'inputFormat'?: "textFormat"|"avroFormat"|"pubsubAvroFormat";
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud_State);
  'bootstrapServer'?: (string);
  'clusterId'?: (string);
  'topic'?: (string);
  'identityPoolId'?: (string);
  'gcpServiceAccount'?: (string);
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud__Output {
  'state'?: (_google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud_State__Output);
  'bootstrapServer'?: (string);
  'clusterId'?: (string);
  'topic'?: (string);
  'identityPoolId'?: (string);
  'gcpServiceAccount'?: (string);
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_PubSubAvroFormat {
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_PubSubAvroFormat__Output {
}

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  KINESIS_PERMISSION_DENIED: 'KINESIS_PERMISSION_DENIED',
  PUBLISH_PERMISSION_DENIED: 'PUBLISH_PERMISSION_DENIED',
  STREAM_NOT_FOUND: 'STREAM_NOT_FOUND',
  CONSUMER_NOT_FOUND: 'CONSUMER_NOT_FOUND',
  CONFLICTING_REGION_CONSTRAINTS: 'CONFLICTING_REGION_CONSTRAINTS',
} as const;

export type _google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'KINESIS_PERMISSION_DENIED'
  | 2
  | 'PUBLISH_PERMISSION_DENIED'
  | 3
  | 'STREAM_NOT_FOUND'
  | 4
  | 'CONSUMER_NOT_FOUND'
  | 5
  | 'CONFLICTING_REGION_CONSTRAINTS'
  | 6

export type _google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis_State__Output = typeof _google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis_State[keyof typeof _google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis_State]

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  CLOUD_STORAGE_PERMISSION_DENIED: 'CLOUD_STORAGE_PERMISSION_DENIED',
  PUBLISH_PERMISSION_DENIED: 'PUBLISH_PERMISSION_DENIED',
  BUCKET_NOT_FOUND: 'BUCKET_NOT_FOUND',
  TOO_MANY_OBJECTS: 'TOO_MANY_OBJECTS',
  CONFLICTING_REGION_CONSTRAINTS: 'CONFLICTING_REGION_CONSTRAINTS',
} as const;

export type _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'CLOUD_STORAGE_PERMISSION_DENIED'
  | 2
  | 'PUBLISH_PERMISSION_DENIED'
  | 3
  | 'BUCKET_NOT_FOUND'
  | 4
  | 'TOO_MANY_OBJECTS'
  | 5
  | 'CONFLICTING_REGION_CONSTRAINTS'
  | 8

export type _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_State__Output = typeof _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_State[keyof typeof _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_State]

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  EVENT_HUBS_PERMISSION_DENIED: 'EVENT_HUBS_PERMISSION_DENIED',
  PUBLISH_PERMISSION_DENIED: 'PUBLISH_PERMISSION_DENIED',
  NAMESPACE_NOT_FOUND: 'NAMESPACE_NOT_FOUND',
  EVENT_HUB_NOT_FOUND: 'EVENT_HUB_NOT_FOUND',
  SUBSCRIPTION_NOT_FOUND: 'SUBSCRIPTION_NOT_FOUND',
  RESOURCE_GROUP_NOT_FOUND: 'RESOURCE_GROUP_NOT_FOUND',
  CONFLICTING_REGION_CONSTRAINTS: 'CONFLICTING_REGION_CONSTRAINTS',
} as const;

export type _google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'EVENT_HUBS_PERMISSION_DENIED'
  | 2
  | 'PUBLISH_PERMISSION_DENIED'
  | 3
  | 'NAMESPACE_NOT_FOUND'
  | 4
  | 'EVENT_HUB_NOT_FOUND'
  | 5
  | 'SUBSCRIPTION_NOT_FOUND'
  | 6
  | 'RESOURCE_GROUP_NOT_FOUND'
  | 7
  | 'CONFLICTING_REGION_CONSTRAINTS'
  | 8

export type _google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs_State__Output = typeof _google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs_State[keyof typeof _google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs_State]

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_IngestionDataSourceSettings_AwsMsk_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  MSK_PERMISSION_DENIED: 'MSK_PERMISSION_DENIED',
  PUBLISH_PERMISSION_DENIED: 'PUBLISH_PERMISSION_DENIED',
  CLUSTER_NOT_FOUND: 'CLUSTER_NOT_FOUND',
  TOPIC_NOT_FOUND: 'TOPIC_NOT_FOUND',
  CONFLICTING_REGION_CONSTRAINTS: 'CONFLICTING_REGION_CONSTRAINTS',
} as const;

export type _google_pubsub_v1_IngestionDataSourceSettings_AwsMsk_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'MSK_PERMISSION_DENIED'
  | 2
  | 'PUBLISH_PERMISSION_DENIED'
  | 3
  | 'CLUSTER_NOT_FOUND'
  | 4
  | 'TOPIC_NOT_FOUND'
  | 5
  | 'CONFLICTING_REGION_CONSTRAINTS'
  | 6

export type _google_pubsub_v1_IngestionDataSourceSettings_AwsMsk_State__Output = typeof _google_pubsub_v1_IngestionDataSourceSettings_AwsMsk_State[keyof typeof _google_pubsub_v1_IngestionDataSourceSettings_AwsMsk_State]

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud_State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  ACTIVE: 'ACTIVE',
  CONFLUENT_CLOUD_PERMISSION_DENIED: 'CONFLUENT_CLOUD_PERMISSION_DENIED',
  PUBLISH_PERMISSION_DENIED: 'PUBLISH_PERMISSION_DENIED',
  UNREACHABLE_BOOTSTRAP_SERVER: 'UNREACHABLE_BOOTSTRAP_SERVER',
  CLUSTER_NOT_FOUND: 'CLUSTER_NOT_FOUND',
  TOPIC_NOT_FOUND: 'TOPIC_NOT_FOUND',
  CONFLICTING_REGION_CONSTRAINTS: 'CONFLICTING_REGION_CONSTRAINTS',
} as const;

export type _google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud_State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'ACTIVE'
  | 1
  | 'CONFLUENT_CLOUD_PERMISSION_DENIED'
  | 2
  | 'PUBLISH_PERMISSION_DENIED'
  | 3
  | 'UNREACHABLE_BOOTSTRAP_SERVER'
  | 4
  | 'CLUSTER_NOT_FOUND'
  | 5
  | 'TOPIC_NOT_FOUND'
  | 6
  | 'CONFLICTING_REGION_CONSTRAINTS'
  | 7

export type _google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud_State__Output = typeof _google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud_State[keyof typeof _google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud_State]

export interface _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_TextFormat {
  'delimiter'?: (string);
  '_delimiter'?: "delimiter";
}

export interface _google_pubsub_v1_IngestionDataSourceSettings_CloudStorage_TextFormat__Output {
  'delimiter'?: (string);
  '_delimiter'?: "delimiter";
}

export interface IngestionDataSourceSettings {
  'awsKinesis'?: (_google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis | null);
  'cloudStorage'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage | null);
  'azureEventHubs'?: (_google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs | null);
  'platformLogsSettings'?: (_google_pubsub_v1_PlatformLogsSettings | null);
  'awsMsk'?: (_google_pubsub_v1_IngestionDataSourceSettings_AwsMsk | null);
  'confluentCloud'?: (_google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud | null);
  'source'?: "awsKinesis"|"cloudStorage"|"azureEventHubs"|"awsMsk"|"confluentCloud";
}

export interface IngestionDataSourceSettings__Output {
  'awsKinesis'?: (_google_pubsub_v1_IngestionDataSourceSettings_AwsKinesis__Output);
  'cloudStorage'?: (_google_pubsub_v1_IngestionDataSourceSettings_CloudStorage__Output);
  'azureEventHubs'?: (_google_pubsub_v1_IngestionDataSourceSettings_AzureEventHubs__Output);
  'platformLogsSettings'?: (_google_pubsub_v1_PlatformLogsSettings__Output);
  'awsMsk'?: (_google_pubsub_v1_IngestionDataSourceSettings_AwsMsk__Output);
  'confluentCloud'?: (_google_pubsub_v1_IngestionDataSourceSettings_ConfluentCloud__Output);
  'source'?: "awsKinesis"|"cloudStorage"|"azureEventHubs"|"awsMsk"|"confluentCloud";
}

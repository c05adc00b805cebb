// Original file: google/pubsub/v1/pubsub.proto

import type { Long } from '@grpc/proto-loader';

export interface _google_pubsub_v1_IngestionFailureEvent_ApiViolationReason {
}

export interface _google_pubsub_v1_IngestionFailureEvent_ApiViolationReason__Output {
}

export interface _google_pubsub_v1_IngestionFailureEvent_AvroFailureReason {
}

export interface _google_pubsub_v1_IngestionFailureEvent_AvroFailureReason__Output {
}

export interface _google_pubsub_v1_IngestionFailureEvent_AwsKinesisFailureReason {
  'streamArn'?: (string);
  'partitionKey'?: (string);
  'sequenceNumber'?: (string);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason | null);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason | null);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason | null);
  'reason'?: "schemaViolationReason"|"messageTransformationFailureReason"|"apiViolationReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_AwsKinesisFailureReason__Output {
  'streamArn'?: (string);
  'partitionKey'?: (string);
  'sequenceNumber'?: (string);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason__Output);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason__Output);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason__Output);
  'reason'?: "schemaViolationReason"|"messageTransformationFailureReason"|"apiViolationReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_AwsMskFailureReason {
  'clusterArn'?: (string);
  'kafkaTopic'?: (string);
  'partitionId'?: (number | string | Long);
  'offset'?: (number | string | Long);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason | null);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason | null);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason | null);
  'reason'?: "apiViolationReason"|"schemaViolationReason"|"messageTransformationFailureReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_AwsMskFailureReason__Output {
  'clusterArn'?: (string);
  'kafkaTopic'?: (string);
  'partitionId'?: (number);
  'offset'?: (number);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason__Output);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason__Output);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason__Output);
  'reason'?: "apiViolationReason"|"schemaViolationReason"|"messageTransformationFailureReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_AzureEventHubsFailureReason {
  'namespace'?: (string);
  'eventHub'?: (string);
  'partitionId'?: (number | string | Long);
  'offset'?: (number | string | Long);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason | null);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason | null);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason | null);
  'reason'?: "apiViolationReason"|"schemaViolationReason"|"messageTransformationFailureReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_AzureEventHubsFailureReason__Output {
  'namespace'?: (string);
  'eventHub'?: (string);
  'partitionId'?: (number);
  'offset'?: (number);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason__Output);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason__Output);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason__Output);
  'reason'?: "apiViolationReason"|"schemaViolationReason"|"messageTransformationFailureReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_CloudStorageFailure {
  'bucket'?: (string);
  'objectName'?: (string);
  'objectGeneration'?: (number | string | Long);
  'avroFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_AvroFailureReason | null);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason | null);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason | null);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason | null);
  'reason'?: "avroFailureReason"|"apiViolationReason"|"schemaViolationReason"|"messageTransformationFailureReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_CloudStorageFailure__Output {
  'bucket'?: (string);
  'objectName'?: (string);
  'objectGeneration'?: (number);
  'avroFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_AvroFailureReason__Output);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason__Output);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason__Output);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason__Output);
  'reason'?: "avroFailureReason"|"apiViolationReason"|"schemaViolationReason"|"messageTransformationFailureReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_ConfluentCloudFailureReason {
  'clusterId'?: (string);
  'kafkaTopic'?: (string);
  'partitionId'?: (number | string | Long);
  'offset'?: (number | string | Long);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason | null);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason | null);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason | null);
  'reason'?: "apiViolationReason"|"schemaViolationReason"|"messageTransformationFailureReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_ConfluentCloudFailureReason__Output {
  'clusterId'?: (string);
  'kafkaTopic'?: (string);
  'partitionId'?: (number);
  'offset'?: (number);
  'apiViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_ApiViolationReason__Output);
  'schemaViolationReason'?: (_google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason__Output);
  'messageTransformationFailureReason'?: (_google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason__Output);
  'reason'?: "apiViolationReason"|"schemaViolationReason"|"messageTransformationFailureReason";
}

export interface _google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason {
}

export interface _google_pubsub_v1_IngestionFailureEvent_MessageTransformationFailureReason__Output {
}

export interface _google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason {
}

export interface _google_pubsub_v1_IngestionFailureEvent_SchemaViolationReason__Output {
}

export interface IngestionFailureEvent {
  'topic'?: (string);
  'errorMessage'?: (string);
  'cloudStorageFailure'?: (_google_pubsub_v1_IngestionFailureEvent_CloudStorageFailure | null);
  'awsMskFailure'?: (_google_pubsub_v1_IngestionFailureEvent_AwsMskFailureReason | null);
  'azureEventHubsFailure'?: (_google_pubsub_v1_IngestionFailureEvent_AzureEventHubsFailureReason | null);
  'confluentCloudFailure'?: (_google_pubsub_v1_IngestionFailureEvent_ConfluentCloudFailureReason | null);
  'awsKinesisFailure'?: (_google_pubsub_v1_IngestionFailureEvent_AwsKinesisFailureReason | null);
  'failure'?: "cloudStorageFailure"|"awsMskFailure"|"azureEventHubsFailure"|"confluentCloudFailure"|"awsKinesisFailure";
}

export interface IngestionFailureEvent__Output {
  'topic'?: (string);
  'errorMessage'?: (string);
  'cloudStorageFailure'?: (_google_pubsub_v1_IngestionFailureEvent_CloudStorageFailure__Output);
  'awsMskFailure'?: (_google_pubsub_v1_IngestionFailureEvent_AwsMskFailureReason__Output);
  'azureEventHubsFailure'?: (_google_pubsub_v1_IngestionFailureEvent_AzureEventHubsFailureReason__Output);
  'confluentCloudFailure'?: (_google_pubsub_v1_IngestionFailureEvent_ConfluentCloudFailureReason__Output);
  'awsKinesisFailure'?: (_google_pubsub_v1_IngestionFailureEvent_AwsKinesisFailureReason__Output);
  'failure'?: "cloudStorageFailure"|"awsMskFailure"|"azureEventHubsFailure"|"confluentCloudFailure"|"awsKinesisFailure";
}

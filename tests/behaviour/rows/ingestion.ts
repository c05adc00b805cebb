/** Import topics: ingestion_data_source_settings as the real service checks them, every source. */
import { pub, topicPath, type Obj, type StatusRow } from "./row.ts";

const SA = "sa@test-project.iam.gserviceaccount.com";

const invalidTopic = (name: string, settings: Obj, mentions: string): StatusRow => ({
  name: `CreateTopic with ${name} → INVALID_ARGUMENT`,
  call: pub("CreateTopic", () => ({ name: topicPath(), ingestionDataSourceSettings: settings })),
  code: "INVALID_ARGUMENT",
  mentions,
});

export const INGESTION_ROWS: StatusRow[] = [
  invalidTopic("a Cloud Storage source without a bucket", { cloudStorage: { textFormat: {} } }, "Missing required fields for CloudStorage ingestion settings: bucket"),
  invalidTopic("a Cloud Storage source with a gs:// bucket", { cloudStorage: { bucket: "gs://b" } }, "ingestion_data_source_settings.cloud_storage.bucket"),
  invalidTopic("a two-character text delimiter", { cloudStorage: { bucket: "my-bucket", textFormat: { delimiter: "ab" } } }, "must be a single character. Delimiter provided: ab"),
  invalidTopic("an empty text delimiter", { cloudStorage: { bucket: "my-bucket", textFormat: { delimiter: "" } } }, "must be a single character"),
  invalidTopic("a Kinesis source without its ARNs", { awsKinesis: { gcpServiceAccount: SA } }, "Missing required fields for AwsKinesis ingestion settings: stream_arn, consumer_arn, aws_role_arn"),
  invalidTopic("an Event Hubs source without a namespace", {
    azureEventHubs: { resourceGroup: "rg", eventHub: "eh", clientId: "c", tenantId: "t", subscriptionId: "s", gcpServiceAccount: SA },
  }, "Missing required fields for AzureEventHubs ingestion settings: namespace"),
  invalidTopic("an MSK source without a cluster", { awsMsk: { topic: "t", awsRoleArn: "arn:aws:iam::1:role/r", gcpServiceAccount: SA } }, "Missing required fields for AwsMsk ingestion settings: cluster_arn"),
  invalidTopic("a Confluent Cloud source without a bootstrap server", {
    confluentCloud: { clusterId: "lkc-1", topic: "t", identityPoolId: "pool-1", gcpServiceAccount: SA },
  }, "Missing required fields for ConfluentCloud ingestion settings: bootstrap_server"),
  invalidTopic("a Kinesis service account that is not an email", {
    awsKinesis: { streamArn: "arn:s", consumerArn: "arn:c", awsRoleArn: "arn:r", gcpServiceAccount: "nobody" },
  }, "ingestion_data_source_settings.aws_kinesis.gcp_service_account"),
  {
    name: "UpdateTopic setting a Cloud Storage source without a bucket → INVALID_ARGUMENT",
    call: pub("UpdateTopic", (f) => ({ topic: { name: f.topic, ingestionDataSourceSettings: { cloudStorage: { avroFormat: {} } } }, updateMask: { paths: ["ingestion_data_source_settings"] } })),
    code: "INVALID_ARGUMENT",
    mentions: "Missing required fields for CloudStorage ingestion settings: bucket",
  },
];

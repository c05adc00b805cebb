/** Cloud Storage subscriptions: every rule of cloud_storage_config, one delivery kind, masks, Pull refused. */
import { invalidCreate, invalidUpdate, pullRefused, type Obj, type StatusRow } from "./row.ts";

const BUCKET = "my-bucket";
const gcs = (extra: Obj) => ({ cloudStorageConfig: { bucket: BUCKET, ...extra } });

export const CLOUD_STORAGE_ROWS: StatusRow[] = [
  invalidCreate("a gs:// bucket", { cloudStorageConfig: { bucket: "gs://bad" } }, 'without any prefix like "gs://"'),
  invalidCreate("an upper-case bucket", { cloudStorageConfig: { bucket: "My-Bucket" } }, "cloud_storage_config.bucket"),
  invalidCreate("a two-character bucket", { cloudStorageConfig: { bucket: "ab" } }, "cloud_storage_config.bucket"),
  invalidCreate("a 64-character bucket without dots", { cloudStorageConfig: { bucket: "a".repeat(64) } }, "3-63 characters"),
  invalidCreate("a bucket ending in a dash", { cloudStorageConfig: { bucket: "bucket-" } }, "cloud_storage_config.bucket"),
  invalidCreate("a bucket that is an IP address", { cloudStorageConfig: { bucket: "192.168.5.4" } }, "IP address"),
  invalidCreate('a bucket starting with "goog"', { cloudStorageConfig: { bucket: "goog-bucket" } }, '"goog" prefix'),
  invalidCreate('a bucket containing "google"', { cloudStorageConfig: { bucket: "my-google-bucket" } }, '"google"'),
  invalidCreate("Cloud Storage options but no bucket", { cloudStorageConfig: { filenamePrefix: "p" } }, "cloud_storage_config.bucket is required"),
  invalidCreate("a filename_suffix ending in /", gcs({ filenameSuffix: "dir/" }), "cloud_storage_config.filename_suffix"),
  invalidCreate("a filename_prefix with a line feed", gcs({ filenamePrefix: "a\nb" }), "cloud_storage_config.filename_prefix"),
  invalidCreate("a filename_prefix over 1024 bytes", gcs({ filenamePrefix: "p".repeat(1025) }), "1024 bytes"),
  invalidCreate("a datetime format without seconds", gcs({ filenameDatetimeFormat: "YYYY-MM-DD/hh_mm" }), "ss is required"),
  invalidCreate("a datetime format using YY twice", gcs({ filenameDatetimeFormat: "YY-YYYY-MM-DD-hh-mm-ss" }), "only once"),
  invalidCreate("a datetime format with an unknown matcher", gcs({ filenameDatetimeFormat: "YYYY-MMM-DD-hh-mm-ss" }), "cloud_storage_config.filename_datetime_format"),
  invalidCreate("max_duration of 3600s", gcs({ maxDuration: { seconds: 3600 } }), "cloud_storage_config.max_duration"),
  invalidCreate("max_duration of 59s", gcs({ maxDuration: { seconds: 59 } }), "between 60s (1 minute) and 600s"),
  invalidCreate("max_bytes of 999", gcs({ maxBytes: 999 }), "cloud_storage_config.max_bytes"),
  invalidCreate("max_bytes over 10 GiB", gcs({ maxBytes: "10737418241" }), "cloud_storage_config.max_bytes"),
  invalidCreate("max_messages of 999", gcs({ maxMessages: 999 }), "cloud_storage_config.max_messages"),
  invalidCreate("negative max_messages", gcs({ maxMessages: -5 }), "cloud_storage_config.max_messages"),
  invalidCreate("a Cloud Storage service account that is not an email", gcs({ serviceAccountEmail: "nobody" }), "cloud_storage_config.service_account_email"),
  invalidCreate("push and Cloud Storage together", { pushConfig: { pushEndpoint: "http://127.0.0.1:9/p" }, ...gcs({}) }, "cloud_storage_config"),
  invalidCreate("BigQuery and Cloud Storage together", { bigqueryConfig: { table: "test-project.ds.table" }, ...gcs({}) }, "at most one of"),
  invalidCreate("Bigtable and Cloud Storage together", { bigtableConfig: { table: "projects/test-project/instances/inst-1/tables/t1" }, ...gcs({}) }, "at most one of"),
  invalidUpdate(
    "with max_duration of 11 minutes",
    ["cloud_storage_config.max_duration"],
    (f) => ({ name: f.gcsSub, cloudStorageConfig: { maxDuration: { seconds: 660 } } }),
    "cloud_storage_config.max_duration",
  ),
  invalidUpdate(
    "with max_messages of 10",
    ["cloud_storage_config.max_messages"],
    (f) => ({ name: f.gcsSub, cloudStorageConfig: { maxMessages: 10 } }),
    "cloud_storage_config.max_messages",
  ),
  invalidUpdate(
    "with a gs:// bucket",
    ["cloud_storage_config.bucket"],
    (f) => ({ name: f.gcsSub, cloudStorageConfig: { bucket: "gs://b" } }),
    "cloud_storage_config.bucket",
  ),
  invalidUpdate(
    "of the output-only cloud_storage_config.state",
    ["cloud_storage_config.state"],
    (f) => ({ name: f.gcsSub, cloudStorageConfig: { state: "ACTIVE" } }),
    "cloud_storage_config.state",
  ),
  invalidUpdate(
    "adding a BigQuery table to a Cloud Storage subscription",
    ["bigquery_config"],
    (f) => ({ name: f.gcsSub, bigqueryConfig: { table: "test-project.ds.table" } }),
    "at most one of",
  ),
  pullRefused("Cloud Storage", (f) => f.gcsSub),
  pullRefused("Cloud Storage", (f) => f.gcsSub, true),
];

/**
 * Topic.ingestion_data_source_settings checked on create and update as the real service checks
 * them: one source, its required fields (named in "Missing required fields for … ingestion
 * settings: …", the official emulator's wording), a text delimiter of one character, a bucket named
 * by Cloud Storage's rules. Cloud Storage sources are ingested (src/ingest/); the others are stored
 * and report a state that says nothing reaches them (see SOURCE_STATES).
 */
import { bounded, invalid } from "../../errors.ts";
import { checkServiceAccount } from "../bigquery/config.ts";
import { checkBucketName } from "./config.ts";

type Obj = Record<string, unknown>;

const FIELD = "ingestion_data_source_settings";

interface Source {
  field: string;
  key: string;
  label: string;
  required: readonly [string, string][];
  /** What an emulator that never reaches this source reports. */
  unreachable: string;
}

const SOURCES: readonly Source[] = [
  {
    field: "aws_kinesis",
    key: "awsKinesis",
    label: "AwsKinesis",
    required: [["streamArn", "stream_arn"], ["consumerArn", "consumer_arn"], ["awsRoleArn", "aws_role_arn"], ["gcpServiceAccount", "gcp_service_account"]],
    unreachable: "STREAM_NOT_FOUND",
  },
  { field: "cloud_storage", key: "cloudStorage", label: "CloudStorage", required: [["bucket", "bucket"]], unreachable: "BUCKET_NOT_FOUND" },
  {
    field: "azure_event_hubs",
    key: "azureEventHubs",
    label: "AzureEventHubs",
    required: [
      ["resourceGroup", "resource_group"], ["namespace", "namespace"], ["eventHub", "event_hub"], ["clientId", "client_id"],
      ["tenantId", "tenant_id"], ["subscriptionId", "subscription_id"], ["gcpServiceAccount", "gcp_service_account"],
    ],
    unreachable: "NAMESPACE_NOT_FOUND",
  },
  {
    field: "aws_msk",
    key: "awsMsk",
    label: "AwsMsk",
    required: [["clusterArn", "cluster_arn"], ["topic", "topic"], ["awsRoleArn", "aws_role_arn"], ["gcpServiceAccount", "gcp_service_account"]],
    unreachable: "CLUSTER_NOT_FOUND",
  },
  {
    field: "confluent_cloud",
    key: "confluentCloud",
    label: "ConfluentCloud",
    required: [
      ["bootstrapServer", "bootstrap_server"], ["clusterId", "cluster_id"], ["topic", "topic"], ["identityPoolId", "identity_pool_id"],
      ["gcpServiceAccount", "gcp_service_account"],
    ],
    unreachable: "UNREACHABLE_BOOTSTRAP_SERVER",
  },
];

const INPUT_FORMATS = ["textFormat", "avroFormat", "pubsubAvroFormat"] as const;
export type InputFormat = "text" | "avro" | "pubsub_avro";

export interface CloudStorageSourceView {
  bucket: string;
  textFormat?: { delimiter?: string };
  avroFormat?: Obj;
  pubsubAvroFormat?: Obj;
  minimumObjectCreateTime?: { seconds?: number | string; nanos?: number };
  matchGlob?: string;
  state?: string;
}

const isSet = (v: unknown) => v !== undefined && v !== null;

/**
 * The settings as stored, each source's state set (Cloud Storage starts ACTIVE and the ingester
 * revises it; the others never leave their "not reached" state), and the topic's state.
 */
export function normalizeIngestionSettings(raw: unknown): { settings: Obj | undefined; topicState: string } {
  if (!raw || typeof raw !== "object") return { settings: undefined, topicState: "ACTIVE" };
  const s = raw as Obj;
  const present = SOURCES.filter((src) => isSet(s[src.key]));
  if (present.length > 1) {
    throw invalid(`Invalid ${FIELD}: only one source may be set, got ${present.map((p) => p.field).join(" and ")}.`);
  }
  const out: Obj = {};
  if (isSet(s.platformLogsSettings)) out.platformLogsSettings = s.platformLogsSettings;
  const src = present[0];
  if (!src) return { settings: Object.keys(out).length ? out : undefined, topicState: "ACTIVE" };
  const c = { ...(s[src.key] as Obj) };
  delete c.state;
  const missing = src.required.filter(([k]) => !c[k]).map(([, f]) => f);
  if (missing.length) throw invalid(`Missing required fields for ${src.label} ingestion settings: ${missing.join(", ")}`);
  if (typeof c.gcpServiceAccount === "string") checkServiceAccount(c.gcpServiceAccount, `${FIELD}.${src.field}.gcp_service_account`);
  if (src.key === "cloudStorage") normalizeCloudStorageSource(c);
  c.state = src.key === "cloudStorage" ? "ACTIVE" : src.unreachable;
  out[src.key] = c;
  return { settings: out, topicState: src.key === "cloudStorage" ? "ACTIVE" : "INGESTION_RESOURCE_ERROR" };
}

function normalizeCloudStorageSource(c: Obj): void {
  checkBucketName(String(c.bucket), `${FIELD}.cloud_storage.bucket`);
  const formats = INPUT_FORMATS.filter((f) => isSet(c[f]));
  if (formats.length > 1) throw invalid(`Invalid ${FIELD}.cloud_storage: only one of text_format, avro_format and pubsub_avro_format may be set.`);
  delete c.inputFormat; // the oneof's name, as the gRPC loader reports it
  if (!formats.length) c.textFormat = {};
  const text = c.textFormat as { delimiter?: string } | undefined;
  if (text && isSet(text.delimiter) && [...String(text.delimiter)].length !== 1) {
    throw invalid(`Delimiter for Cloud Storage ingestion text format must be a single character. Delimiter provided: ${bounded(String(text.delimiter))}`);
  }
  if (isSet(c.matchGlob) && typeof c.matchGlob === "string" && c.matchGlob.length > 1024) {
    throw invalid(`Invalid ${FIELD}.cloud_storage.match_glob: it is ${c.matchGlob.length} characters, but the maximum allowed is 1024.`);
  }
  if (!c.matchGlob) delete c.matchGlob;
}

export function cloudStorageSourceOf(settings: unknown): CloudStorageSourceView | null {
  const c = (settings as { cloudStorage?: CloudStorageSourceView } | undefined)?.cloudStorage;
  return c?.bucket ? c : null;
}

export function inputFormatOf(c: CloudStorageSourceView): InputFormat {
  if (c.avroFormat) return "avro";
  if (c.pubsubAvroFormat) return "pubsub_avro";
  return "text";
}

/** The streaming sources the emulator reads (src/ingest/stream-imports.ts), by their settings key. */
export type StreamSourceKind = "confluentCloud" | "awsMsk" | "awsKinesis";

export interface StreamSourceView {
  kind: StreamSourceKind;
  /** The source's settings as stored (its output-only state included). */
  settings: Record<string, unknown> & { state?: string };
}

const STREAM_KINDS: readonly StreamSourceKind[] = ["confluentCloud", "awsMsk", "awsKinesis"];

export function streamSourceOf(settings: unknown): StreamSourceView | null {
  if (!settings || typeof settings !== "object") return null;
  for (const kind of STREAM_KINDS) {
    const c = (settings as Record<string, unknown>)[kind];
    if (c && typeof c === "object") return { kind, settings: c as StreamSourceView["settings"] };
  }
  return null;
}

const SEVERITIES = ["DEBUG", "INFO", "WARNING", "ERROR"] as const;

/** platform_logs_settings.severity, or null when ingestion failures are not to be logged. */
export function platformLogSeverity(settings: unknown): "DEBUG" | "INFO" | "WARNING" | "ERROR" | null {
  const raw = (settings as { platformLogsSettings?: { severity?: unknown } } | undefined)?.platformLogsSettings?.severity;
  // The enum as its name (JSON, proto-loader) or its number (DEBUG = 2 … ERROR = 5).
  const s = typeof raw === "number" ? SEVERITIES[raw - 2] : raw;
  return SEVERITIES.find((v) => v === s) ?? null;
}

/**
 * cloud_storage_config as the real service checks it on create and update: the bucket named by
 * Cloud Storage's bucket naming rules (never `gs://…`), prefix and suffix by its object naming
 * rules, the datetime format by the documented matchers, max_duration 1–10 minutes (default 5),
 * max_bytes 1 KB–10 GiB, max_messages ≥ 1000, text or Avro output.
 */
import { bounded, invalid } from "../../errors.ts";
import { byteLength } from "../../message.ts";
import { MINUTE, SECOND } from "../../resources.ts";
import { checkServiceAccount } from "../bigquery/config.ts";
import { parseDatetimeFormat } from "./object-names.ts";

export interface DurationView {
  seconds?: number | string;
  nanos?: number;
}

export interface CloudStorageConfigView {
  bucket?: string;
  filenamePrefix?: string;
  filenameSuffix?: string;
  filenameDatetimeFormat?: string;
  textConfig?: Record<string, never> | null;
  avroConfig?: { writeMetadata?: boolean; useTopicSchema?: boolean } | null;
  maxDuration?: DurationView | null;
  maxBytes?: number | string;
  maxMessages?: number | string;
  state?: string;
  serviceAccountEmail?: string;
}

export const DEFAULT_MAX_DURATION = 5 * MINUTE;
const MIN_DURATION = MINUTE;
const MAX_DURATION = 10 * MINUTE;
const MIN_BYTES = 1000;
const MAX_BYTES = 10 * 1024 ** 3;
const MIN_MESSAGES = 1000;
const MAX_OBJECT_NAME_BYTES = 1024;

const FIELD = "cloud_storage_config";

export const storageConfigOf = (c: { cloudStorageConfig?: unknown }): CloudStorageConfigView | undefined =>
  c.cloudStorageConfig as CloudStorageConfigView | undefined;

export const storageBucketOf = (c: { cloudStorageConfig?: unknown }): string => storageConfigOf(c)?.bucket ?? "";

/** Milliseconds of a google.protobuf.Duration as the transports hand it over (seconds may be a string). */
export function durationMs(d: DurationView | null | undefined): number | undefined {
  if (!d) return undefined;
  const s = Number(d.seconds ?? 0);
  const n = Number(d.nanos ?? 0);
  if (!Number.isFinite(s) || !Number.isFinite(n)) return NaN;
  return s * SECOND + n / 1e6;
}

const durationOf = (ms: number): DurationView => ({ seconds: Math.floor(ms / SECOND), nanos: Math.round((ms % SECOND) * 1e6) });
const showSeconds = (ms: number) => `${Number.isFinite(ms) ? ms / SECOND : "NaN"}s`;

function int64(v: number | string | undefined, field: string): number {
  if (v === undefined || v === null || v === "") return 0;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw invalid(`Invalid ${FIELD}.${field}: "${bounded(String(v))}".`);
  return n;
}

// Cloud Storage bucket names: 3-63 characters (up to 222 with dots, each dot-separated part at most
// 63), lowercase letters, digits, -, _ and ., starting and ending with a letter or digit; not an
// IP address; not starting with "goog" and not containing "google".
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;

export function checkBucketName(bucket: string, field = `${FIELD}.bucket`): void {
  const why = bucketProblem(bucket);
  if (why) throw invalid(`Invalid ${field}: "${bounded(bucket)}". ${why}`);
}

function bucketProblem(b: string): string | null {
  if (/^gs:\/\//i.test(b)) return 'The bucket name must be without any prefix like "gs://".';
  if (!BUCKET.test(b)) {
    return "Bucket names must contain only lowercase letters, numbers, dashes (-), underscores (_) and dots (.), and start and end with a letter or number.";
  }
  if (b.length > 63 && !b.includes(".")) return "Bucket names must contain 3-63 characters (up to 222 when they contain dots).";
  if (b.split(".").some((part) => part.length === 0 || part.length > 63)) return "Each dot-separated component of a bucket name must be 1-63 characters.";
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(b)) return "Bucket names cannot be represented as an IP address.";
  if (b.startsWith("goog")) return 'Bucket names cannot begin with the "goog" prefix.';
  if (/g[o0]{2}gle/.test(b)) return 'Bucket names cannot contain "google" or close misspellings of it.';
  return null;
}

function checkNamePart(value: string, field: string): void {
  if (!value) return;
  const where = `Invalid ${FIELD}.${field}: "${bounded(value)}".`;
  if (!value.isWellFormed()) throw invalid(`${where} It must be valid UTF-8.`);
  if (/[\r\n]/.test(value)) throw invalid(`${where} Object names cannot contain carriage return or line feed characters.`);
  if (byteLength(value) > MAX_OBJECT_NAME_BYTES) throw invalid(`${where} Object names can be at most ${MAX_OBJECT_NAME_BYTES} bytes.`);
}

/** Throws INVALID_ARGUMENT naming the field; returns the config with defaults and `state`. */
export function normalizeCloudStorageConfig(next: unknown, state: string, prev?: unknown): CloudStorageConfigView | undefined {
  const c = next as CloudStorageConfigView | undefined;
  if (!c) return undefined;
  const anySet = c.bucket || c.filenamePrefix || c.filenameSuffix || c.filenameDatetimeFormat || c.textConfig || c.avroConfig ||
    c.maxDuration || Number(c.maxBytes ?? 0) || Number(c.maxMessages ?? 0) || c.serviceAccountEmail;
  if (!anySet) return undefined;
  if (!c.bucket) throw invalid(`${FIELD}.bucket is required for a Cloud Storage subscription.`);
  checkBucketName(String(c.bucket));
  const prefix = c.filenamePrefix ?? "";
  const suffix = c.filenameSuffix ?? "";
  checkNamePart(prefix, "filename_prefix");
  checkNamePart(suffix, "filename_suffix");
  if (suffix.endsWith("/")) throw invalid(`Invalid ${FIELD}.filename_suffix: "${bounded(suffix)}". It must not end in "/".`);
  if (prefix === "." || prefix === ".." || prefix.startsWith(".well-known/acme-challenge/")) {
    throw invalid(`Invalid ${FIELD}.filename_prefix: "${bounded(prefix)}". See the Cloud Storage object naming requirements.`);
  }
  const format = c.filenameDatetimeFormat ?? "";
  if (format) {
    const why = parseDatetimeFormat(format);
    if (typeof why === "string") throw invalid(`Invalid ${FIELD}.filename_datetime_format: "${bounded(format)}". ${why}`);
  }
  const duration = durationMs(c.maxDuration) ?? DEFAULT_MAX_DURATION;
  if (!(duration >= MIN_DURATION && duration <= MAX_DURATION)) {
    throw invalid(`Invalid ${FIELD}.max_duration: ${showSeconds(duration)}. It must be between 60s (1 minute) and 600s (10 minutes).`);
  }
  const maxBytes = int64(c.maxBytes, "max_bytes");
  if (maxBytes !== 0 && (maxBytes < MIN_BYTES || maxBytes > MAX_BYTES)) {
    throw invalid(`Invalid ${FIELD}.max_bytes: ${maxBytes}. It must be between ${MIN_BYTES} (1 KB) and ${MAX_BYTES} (10 GiB).`);
  }
  const maxMessages = int64(c.maxMessages, "max_messages");
  if (maxMessages !== 0 && maxMessages < MIN_MESSAGES) {
    throw invalid(`Invalid ${FIELD}.max_messages: ${maxMessages}. It must be at least ${MIN_MESSAGES}.`);
  }
  checkServiceAccount(c.serviceAccountEmail, `${FIELD}.service_account_email`);
  const out: CloudStorageConfigView = {
    bucket: c.bucket,
    filenamePrefix: prefix,
    filenameSuffix: suffix,
    filenameDatetimeFormat: format,
    maxDuration: durationOf(duration),
    maxBytes,
    maxMessages,
    state,
    serviceAccountEmail: c.serviceAccountEmail ?? "",
  };
  const avro = outputIsAvro(c, prev as CloudStorageConfigView | undefined);
  if (avro) out.avroConfig = { writeMetadata: !!c.avroConfig?.writeMetadata, useTopicSchema: !!c.avroConfig?.useTopicSchema };
  else out.textConfig = {};
  return out;
}

/**
 * output_format is a oneof: gRPC can only carry one member, JSON can carry both. On create both is
 * an error; on update the member that changed wins (a mask naming one member switches to it).
 */
function outputIsAvro(c: CloudStorageConfigView, prev: CloudStorageConfigView | undefined): boolean {
  if (!(c.textConfig && c.avroConfig)) return !!c.avroConfig;
  if (!prev) throw invalid(`Invalid ${FIELD}: only one of text_config and avro_config may be set.`);
  return !prev.avroConfig;
}

/** The batching limits of a normalized config. */
export function batchLimits(c: CloudStorageConfigView): { durationMs: number; maxBytes: number; maxMessages: number } {
  return {
    durationMs: durationMs(c.maxDuration) ?? DEFAULT_MAX_DURATION,
    maxBytes: Number(c.maxBytes ?? 0) || Infinity,
    maxMessages: Number(c.maxMessages ?? 0) || Infinity,
  };
}

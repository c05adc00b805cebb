/**
 * Every status row, by family: one row per validation rule of the real service (see
 * /work/shared/reference/limits-and-errors.md). status.test.ts runs each over gRPC and over REST;
 * a row says where REST's front end answers differently, and which rows have no REST form
 * (StreamingPull has no HTTP binding on the real service either; a name outside the path template
 * cannot be put in a URL).
 */
import { CLOUD_STORAGE_ROWS } from "./cloud-storage.ts";
import { EXPORT_KIND_ROWS } from "./export-kinds.ts";
import { IAM_ROWS } from "./iam.ts";
import { INGESTION_ROWS } from "./ingestion.ts";
import { NAME_AND_PUBLISH_ROWS } from "./names-and-publish.ts";
import { RESOURCE_FIELD_ROWS } from "./resource-fields.ts";
import { RESOURCE_ROWS } from "./resources.ts";
import type { StatusRow } from "./row.ts";
import { SCHEMA_ROWS } from "./schemas.ts";
import { SNAPSHOT_ROWS } from "./snapshots-and-seek.ts";
import { SUBSCRIPTION_ROWS } from "./subscriptions.ts";

export const ROWS: StatusRow[] = [
  ...NAME_AND_PUBLISH_ROWS,
  ...RESOURCE_ROWS,
  ...RESOURCE_FIELD_ROWS,
  ...SUBSCRIPTION_ROWS,
  ...SNAPSHOT_ROWS,
  ...SCHEMA_ROWS,
  ...IAM_ROWS,
  ...EXPORT_KIND_ROWS,
  ...CLOUD_STORAGE_ROWS,
  ...INGESTION_ROWS,
];

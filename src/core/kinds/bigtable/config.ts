/** bigtable_config as the real service checks it on create and update. */
import { bounded, invalid } from "../../errors.ts";
import { checkServiceAccount } from "../bigquery/config.ts";

export interface BigtableConfigView {
  table?: string;
  appProfileId?: string;
  serviceAccountEmail?: string;
  writeMetadata?: boolean;
  state?: string;
}

// Bigtable's own id rules: instance ids 6-33 characters, table and app profile ids up to 50.
const TABLE = /^projects\/((?:[a-z0-9.-]{1,63}:)?[a-z][a-z0-9-]{0,61}[a-z0-9])\/instances\/([a-z][a-z0-9-]{4,31}[a-z0-9])\/tables\/([_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49})$/;
const APP_PROFILE = /^[_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49}$/;

export const bigtableTableOf = (config: { bigtableConfig?: unknown }): string =>
  (config.bigtableConfig as BigtableConfigView | undefined)?.table ?? "";

/** `projects/{p}/instances/{i}/tables/{t}` split, or null. */
export function parseBigtableTable(name: string): { project: string; instance: string; table: string } | null {
  const m = typeof name === "string" ? TABLE.exec(name) : null;
  return m ? { project: m[1], instance: m[2], table: m[3] } : null;
}

export function normalizeBigtableConfig(next: unknown, state: string): BigtableConfigView | undefined {
  const c = next as BigtableConfigView | undefined;
  if (!c) return undefined;
  if (!(c.table || c.appProfileId || c.serviceAccountEmail || c.writeMetadata)) return undefined;
  if (!c.table) throw invalid("bigtable_config.table is required for a Bigtable subscription.");
  if (!parseBigtableTable(c.table)) {
    throw invalid(`Invalid bigtable_config.table: "${bounded(c.table)}". It must be of the form projects/{project}/instances/{instance}/tables/{table}.`);
  }
  if (c.appProfileId && !APP_PROFILE.test(c.appProfileId)) {
    throw invalid(`Invalid bigtable_config.app_profile_id: "${bounded(c.appProfileId)}". It must be 1-50 letters, digits, _, - or . and not start with - or .`);
  }
  checkServiceAccount(c.serviceAccountEmail, "bigtable_config.service_account_email");
  return {
    table: c.table,
    appProfileId: c.appProfileId ?? "",
    serviceAccountEmail: c.serviceAccountEmail ?? "",
    writeMetadata: !!c.writeMetadata,
    state,
  };
}

/** BigQuery and Bigtable subscriptions: their configs' rules, one delivery kind, masks, Pull refused. */
import { invalidCreate, invalidUpdate, pullRefused, type Obj, type StatusRow } from "./row.ts";

const TABLE = "test-project.ds.table";
const BT_TABLE = "projects/test-project/instances/inst-1/tables/t1";

export const EXPORT_KIND_ROWS: StatusRow[] = [
  invalidCreate("a BigQuery table that is not project.dataset.table", { bigqueryConfig: { table: "dataset.table" } }, "bigquery_config.table"),
  invalidCreate("a BigQuery table id with a slash", { bigqueryConfig: { table: "test-project.ds.a/b" } }, "bigquery_config.table"),
  invalidCreate("BigQuery options but no table", { bigqueryConfig: { writeMetadata: true } }, "bigquery_config.table"),
  invalidCreate("use_topic_schema and use_table_schema together", { bigqueryConfig: { table: TABLE, useTopicSchema: true, useTableSchema: true } }, "use_topic_schema and use_table_schema"),
  invalidCreate("drop_unknown_fields without a schema", { bigqueryConfig: { table: TABLE, dropUnknownFields: true } }, "bigquery_config.drop_unknown_fields"),
  invalidCreate("a BigQuery service account that is not an email", { bigqueryConfig: { table: TABLE, serviceAccountEmail: "nobody" } }, "bigquery_config.service_account_email"),
  invalidCreate("a Bigtable table that is not a resource name", { bigtableConfig: { table: "t1" } }, "bigtable_config.table"),
  invalidCreate("Bigtable options but no table", { bigtableConfig: { appProfileId: "p" } }, "bigtable_config.table"),
  invalidCreate("a Bigtable app_profile_id starting with a dash", { bigtableConfig: { table: BT_TABLE, appProfileId: "-p" } }, "bigtable_config.app_profile_id"),
  invalidCreate("a Bigtable service account that is not an email", { bigtableConfig: { table: BT_TABLE, serviceAccountEmail: "x@" } }, "bigtable_config.service_account_email"),
  invalidCreate("push and BigQuery together", { pushConfig: { pushEndpoint: "http://127.0.0.1:9/p" }, bigqueryConfig: { table: TABLE } }, "at most one of push_config, bigquery_config"),
  invalidCreate("BigQuery and Bigtable together", { bigqueryConfig: { table: TABLE }, bigtableConfig: { table: BT_TABLE } }, "bigtable_config"),
  invalidUpdate(
    "of the output-only bigquery_config.state",
    ["bigquery_config.state"],
    (f) => ({ name: f.bqSub, bigqueryConfig: { state: "ACTIVE" } }),
    "bigquery_config.state",
  ),
  invalidUpdate(
    "turning on use_table_schema beside use_topic_schema",
    ["bigquery_config.use_topic_schema", "bigquery_config.use_table_schema"],
    (f) => ({
      name: f.bqSub,
      bigqueryConfig: { useTopicSchema: true, useTableSchema: true },
    }),
    "use_topic_schema and use_table_schema",
  ),
  invalidUpdate(
    "adding a push endpoint to a Bigtable subscription",
    ["push_config"],
    (f) => ({ name: f.btSub, pushConfig: { pushEndpoint: "http://127.0.0.1:9/p" } }),
    "at most one of",
  ),
  invalidUpdate(
    "of an unknown bigtable_config field",
    ["bigtable_config.column_families"],
    (f) => ({ name: f.btSub }),
    "bigtable_config.column_families",
  ),
  pullRefused("BigQuery", (f) => f.bqSub),
  pullRefused("Bigtable", (f) => f.btSub),
  pullRefused("BigQuery", (f) => f.bqSub, true),
];

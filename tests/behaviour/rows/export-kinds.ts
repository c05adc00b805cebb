/** BigQuery and Bigtable subscriptions: their configs' rules, one delivery kind, masks, Pull refused. */
import { createSub, subr, type Obj, type StatusRow } from "./row.ts";

const TABLE = "test-project.ds.table";
const BT_TABLE = "projects/test-project/instances/inst-1/tables/t1";

const invalidCreate = (name: string, extra: Obj, mentions: string): StatusRow => ({
  name: `CreateSubscription with ${name} → INVALID_ARGUMENT`,
  call: createSub(extra),
  code: "INVALID_ARGUMENT",
  mentions,
});

const update = (mask: string[], subscription: (f: Obj) => Obj) =>
  subr("UpdateSubscription", (f) => ({ subscription: subscription(f), updateMask: { paths: mask } }));

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
  {
    name: "UpdateSubscription of the output-only bigquery_config.state → INVALID_ARGUMENT",
    call: update(["bigquery_config.state"], (f) => ({ name: f.bqSub, bigqueryConfig: { state: "ACTIVE" } })),
    code: "INVALID_ARGUMENT",
    mentions: "bigquery_config.state",
  },
  {
    name: "UpdateSubscription turning on use_table_schema beside use_topic_schema → INVALID_ARGUMENT",
    call: update(["bigquery_config.use_topic_schema", "bigquery_config.use_table_schema"], (f) => ({
      name: f.bqSub,
      bigqueryConfig: { useTopicSchema: true, useTableSchema: true },
    })),
    code: "INVALID_ARGUMENT",
    mentions: "use_topic_schema and use_table_schema",
  },
  {
    name: "UpdateSubscription adding a push endpoint to a Bigtable subscription → INVALID_ARGUMENT",
    call: update(["push_config"], (f) => ({ name: f.btSub, pushConfig: { pushEndpoint: "http://127.0.0.1:9/p" } })),
    code: "INVALID_ARGUMENT",
    mentions: "at most one of",
  },
  {
    name: "UpdateSubscription of an unknown bigtable_config field → INVALID_ARGUMENT",
    call: update(["bigtable_config.column_families"], (f) => ({ name: f.btSub })),
    code: "INVALID_ARGUMENT",
    mentions: "bigtable_config.column_families",
  },
  {
    name: "Pull on a BigQuery subscription → FAILED_PRECONDITION",
    call: subr("Pull", (f) => ({ subscription: f.bqSub, maxMessages: 1 })),
    code: "FAILED_PRECONDITION",
    mentions: "BigQuery subscriptions",
  },
  {
    name: "Pull on a Bigtable subscription → FAILED_PRECONDITION",
    call: subr("Pull", (f) => ({ subscription: f.btSub, maxMessages: 1 })),
    code: "FAILED_PRECONDITION",
    mentions: "Bigtable subscriptions",
  },
  {
    name: "StreamingPull on a BigQuery subscription → FAILED_PRECONDITION",
    stream: (f) => [{ subscription: f.bqSub, streamAckDeadlineSeconds: 10 }],
    code: "FAILED_PRECONDITION",
    mentions: "BigQuery subscriptions",
  },
];

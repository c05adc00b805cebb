/**
 * The Bigtable delivery kind, writing as googleapis' 2026 BigtableConfig says: row key
 * `{subscription name}#{message id hash}#{message id}`, the data in family `data` under the empty qualifier, and
 * with write_metadata the columns subscription_name, message_id, publish_time and attributes (a
 * JSON object) in family `pubsub_metadata`; every cell stamped with the publish time.
 * A missing instance, table or app profile is PERMISSION_DENIED (NOT_FOUND and
 * APP_PROFILE_MISCONFIGURED are "unused" since then); a missing family is SCHEMA_MISMATCH.
 */
import type { BigtableConfigView } from "../../core/kinds/bigtable/config.ts";
import type { ExportKind, SinkResult } from "../../core/kinds/export-delivery.ts";
import type { Delivery } from "../../core/message.ts";
import type { SubscriptionResource } from "../../core/resources.ts";
import type { Subscription } from "../../core/subscription/subscription.ts";
import { timestampFromMillis } from "../../core/kinds/bigquery/values.ts";
import { metadataAttributes } from "../../core/kinds/metadata-attributes.ts";
import type { BigtableClient, RowMutation, SetCell } from "./client.ts";
import { mappedRow } from "./column-mapping.ts";

const btConfig = (c: SubscriptionResource) => c.bigtableConfig as BigtableConfigView | undefined;
const enc = new TextEncoder();
const EMPTY = new Uint8Array(0);
const NO_FAMILIES: ReadonlySet<string> = new Set();

const GRPC_NOT_FOUND = 5;
const GRPC_PERMISSION_DENIED = 7;

/**
 * The key's hash part. The service does not publish its hash (it spreads keys across tablets);
 * ours is CRC-32 of the message id as 8 lowercase hex digits: stable, cheap, and readers that
 * split the key on `#` find the id as its last part either way.
 */
export function messageIdHash(id: string): string {
  return Bun.hash.crc32(id).toString(16).padStart(8, "0");
}

/**
 * One message's row: by default its data under `data`:"" keyed `sub#hash#id`; with a
 * column_family_mapping its JSON fields, or why it cannot be written (it stays in the backlog).
 * write_metadata adds the pubsub_metadata columns either way.
 */
export function rowFor(subscription: string, d: Delivery, c: BigtableConfigView, families: ReadonlySet<string> = NO_FAMILIES): RowMutation | string {
  const m = d.message;
  const ts = String(m.publishTime * 1000);
  const defaultKey = enc.encode(`${subscription}#${messageIdHash(m.id)}#${m.id}`);
  const row = c.columnFamilyMapping
    ? mappedRow(m.data, c.columnFamilyMapping, families, defaultKey, ts)
    : { rowKey: defaultKey, cells: [{ familyName: "data", columnQualifier: EMPTY, timestampMicros: ts, value: m.data }] };
  if (typeof row === "string" || !c.writeMetadata) return row;
  const meta = (q: string, v: string): SetCell => ({ familyName: "pubsub_metadata", columnQualifier: enc.encode(q), timestampMicros: ts, value: enc.encode(v) });
  row.cells.push(
    meta("subscription_name", subscription),
    meta("message_id", m.id),
    meta("publish_time", String(timestampFromMillis(m.publishTime))),
    meta("attributes", JSON.stringify(metadataAttributes(m))),
  );
  return row;
}

function stateOf(code: number, message: string): string {
  if (/family/i.test(message)) return "SCHEMA_MISMATCH";
  if (code === GRPC_PERMISSION_DENIED || code === GRPC_NOT_FOUND) return "PERMISSION_DENIED";
  return "ACTIVE";
}

export class BigtableKind implements ExportKind {
  readonly name = "bigtable";
  private client: BigtableClient | null = null;

  constructor(private host: string) {}

  applies(config: SubscriptionResource): boolean {
    return !!btConfig(config)?.table;
  }

  setState(config: SubscriptionResource, state: string): void {
    const c = btConfig(config);
    if (c) c.state = state;
  }

  private connect(): BigtableClient | null {
    if (!this.host) return null;
    // The client (grpc-js channel, proto-loader over the Bigtable protos) loads with the first
    // Bigtable subscription, not with every server.
    return (this.client ??= new (require("./client.ts") as typeof import("./client.ts")).BigtableClient(this.host));
  }

  async probe(sub: Subscription): Promise<string> {
    const client = this.connect();
    if (!client) return "PERMISSION_DENIED";
    const c = btConfig(sub.config)!;
    const r = await client.probe(c.table!, c.appProfileId ?? "");
    return r.code === 0 ? "ACTIVE" : stateOf(r.code, r.message) === "ACTIVE" ? "PERMISSION_DENIED" : stateOf(r.code, r.message);
  }

  async write(sub: Subscription, batch: Delivery[]): Promise<SinkResult> {
    const client = this.connect();
    if (!client) return { state: "PERMISSION_DENIED", written: [] };
    const c = btConfig(sub.config)!;
    const name = sub.config.name;
    let families = NO_FAMILIES;
    if (c.columnFamilyMapping) {
      // The table's families decide where each JSON field goes; GetTable on every batch follows changes.
      const schema = await client.tableSchema(c.table!);
      if (!schema.ok) return { state: stateOf(schema.code, schema.message) === "SCHEMA_MISMATCH" ? "SCHEMA_MISMATCH" : "PERMISSION_DENIED", written: [] };
      // row_key_schema needs the table's structured row key (SCHEMA_MISMATCH without one, as
      // BigtableConfig.State says); encoding keys to one is not done here: see docs/api-currency.md.
      if (c.columnFamilyMapping.rowKeySchema) return { state: "SCHEMA_MISMATCH", written: [] };
      families = schema.families;
    }
    const mapped = batch.map((d) => rowFor(name, d, c, families));
    const writable = batch.filter((_, i) => typeof mapped[i] !== "string");
    const rows = mapped.filter((r): r is RowMutation => typeof r !== "string");
    if (!rows.length) return { state: "ACTIVE", written: [] };
    const r = await client.mutateRows(c.table!, c.appProfileId ?? "", rows);
    if (r.callCode !== 0) return { state: stateOf(r.callCode, r.message), written: [] };
    const written = writable.filter((_, i) => r.codes[i] === 0);
    // The emulator reports a missing family per entry (INTERNAL "unknown family"); so may the service.
    const failedFamily = r.codes.some((code) => code !== 0);
    return { state: failedFamily && !written.length ? "SCHEMA_MISMATCH" : "ACTIVE", written };
  }

  close(): void {
    this.client?.close();
    this.client = null;
  }
}

/**
 * The Bigtable delivery kind, writing as the real service does: row key
 * `{subscription name}#{message id}`, the data in family `data` under the empty qualifier, and
 * with write_metadata the columns subscription_name, message_id, publish_time and attributes (a
 * JSON object) in family `pubsub_metadata`; every cell stamped with the publish time.
 * A missing table is NOT_FOUND; a missing family is SCHEMA_MISMATCH (BigtableConfig.State says so).
 */
import type { BigtableConfigView } from "../../core/kinds/bigtable/config.ts";
import type { ExportKind, SinkResult } from "../../core/kinds/export-delivery.ts";
import type { Delivery } from "../../core/message.ts";
import type { SubscriptionResource } from "../../core/resources.ts";
import type { Subscription } from "../../core/subscription/subscription.ts";
import { timestampFromMillis } from "../../core/kinds/bigquery/values.ts";
import { metadataAttributes } from "../../core/kinds/metadata-attributes.ts";
import type { BigtableClient, RowMutation, SetCell } from "./client.ts";

const btConfig = (c: SubscriptionResource) => c.bigtableConfig as BigtableConfigView | undefined;
const enc = new TextEncoder();
const EMPTY = new Uint8Array(0);

const GRPC_NOT_FOUND = 5;
const GRPC_PERMISSION_DENIED = 7;

export function rowFor(subscription: string, d: Delivery, writeMetadata: boolean): RowMutation {
  const m = d.message;
  const ts = String(m.publishTime * 1000);
  const cells: SetCell[] = [{ familyName: "data", columnQualifier: EMPTY, timestampMicros: ts, value: m.data }];
  if (writeMetadata) {
    const meta = (q: string, v: string): SetCell => ({ familyName: "pubsub_metadata", columnQualifier: enc.encode(q), timestampMicros: ts, value: enc.encode(v) });
    cells.push(
      meta("subscription_name", subscription),
      meta("message_id", m.id),
      meta("publish_time", String(timestampFromMillis(m.publishTime))),
      meta("attributes", JSON.stringify(metadataAttributes(m))),
    );
  }
  return { rowKey: enc.encode(`${subscription}#${m.id}`), cells };
}

function stateOf(code: number, message: string): string {
  if (code === GRPC_PERMISSION_DENIED) return "PERMISSION_DENIED";
  if (/family/i.test(message)) return "SCHEMA_MISMATCH";
  if (code === GRPC_NOT_FOUND) return "NOT_FOUND";
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
    if (!client) return "NOT_FOUND";
    const c = btConfig(sub.config)!;
    const r = await client.probe(c.table!, c.appProfileId ?? "");
    return r.code === 0 ? "ACTIVE" : stateOf(r.code, r.message) === "ACTIVE" ? "NOT_FOUND" : stateOf(r.code, r.message);
  }

  async write(sub: Subscription, batch: Delivery[]): Promise<SinkResult> {
    const client = this.connect();
    if (!client) return { state: "NOT_FOUND", written: [] };
    const c = btConfig(sub.config)!;
    const name = sub.config.name;
    const rows = batch.map((d) => rowFor(name, d, !!c.writeMetadata));
    const r = await client.mutateRows(c.table!, c.appProfileId ?? "", rows);
    if (r.callCode !== 0) return { state: stateOf(r.callCode, r.message), written: [] };
    const written = batch.filter((_, i) => r.codes[i] === 0);
    // The emulator reports a missing family per entry (INTERNAL "unknown family"); so may the service.
    const failedFamily = r.codes.some((code) => code !== 0);
    return { state: failedFamily && !written.length ? "SCHEMA_MISMATCH" : "ACTIVE", written };
  }

  close(): void {
    this.client?.close();
    this.client = null;
  }
}

/** The BigQuery delivery kind: fit checks and rows for the `--bigquery-dir` tables. */
import type { BigQueryConfigView } from "../../core/kinds/bigquery/config.ts";
import { checkFit } from "../../core/kinds/bigquery/fit.ts";
import { buildRow, type RowContext } from "../../core/kinds/bigquery/rows.ts";
import type { BqTable } from "../../core/kinds/bigquery/table-schema.ts";
import { topicRows, type TopicRows } from "../../core/kinds/bigquery/topic-fields.ts";
import type { ExportKind, SinkResult } from "../../core/kinds/export-delivery.ts";
import type { Delivery, StoredMessage } from "../../core/message.ts";
import type { SubscriptionResource } from "../../core/resources.ts";
import type { SchemaRegistry, SchemaRevision } from "../../core/schemas/registry.ts";
import type { SchemaSettings } from "../../core/schemas/topic-schema.ts";
import type { Subscription } from "../../core/subscription/subscription.ts";
import { DirTables } from "./dir-tables.ts";

const bqConfig = (c: SubscriptionResource) => c.bigqueryConfig as BigQueryConfigView | undefined;

export class BigQueryKind implements ExportKind {
  readonly name = "bigquery";
  readonly tables: DirTables;
  private decoders = new WeakMap<SchemaRevision, TopicRows>();

  constructor(
    dir: string | undefined,
    private schemas: () => SchemaRegistry,
  ) {
    this.tables = new DirTables(dir);
  }

  applies(config: SubscriptionResource): boolean {
    return !!bqConfig(config)?.table;
  }

  setState(config: SubscriptionResource, state: string): void {
    const c = bqConfig(config);
    if (c) c.state = state;
  }

  probe(sub: Subscription): string {
    const ctx = this.context(sub);
    return typeof ctx === "string" ? ctx : "ACTIVE";
  }

  async write(sub: Subscription, batch: Delivery[]): Promise<SinkResult> {
    const ctx = this.context(sub);
    if (typeof ctx === "string") return { state: ctx, written: [] };
    this.setState(sub.config, "ACTIVE"); // the table is there and fits, whatever the write's fate
    const rows: unknown[] = [];
    const written: Delivery[] = [];
    for (const d of batch) {
      const row = buildRow(d.message, ctx);
      if (typeof row === "string") continue; // unwritable: nacked, dead-lettered once its attempts run out
      rows.push(row);
      written.push(d);
    }
    if (rows.length) await this.tables.append(bqConfig(sub.config)!.table!, rows);
    return { state: "ACTIVE", written };
  }

  private revision(name: string): SchemaRevision | null {
    try {
      return this.schemas().get(name);
    } catch {
      return null;
    }
  }

  private decoder(revision: SchemaRevision): TopicRows {
    let d = this.decoders.get(revision);
    if (!d) this.decoders.set(revision, (d = topicRows(revision)));
    return d;
  }

  /** The row context, or the state that stops writing (NOT_FOUND, SCHEMA_MISMATCH). */
  private context(sub: Subscription): RowContext | string {
    const c = bqConfig(sub.config)!;
    const found = this.tables.lookup(c.table!);
    if (!found.ok) return found.state;
    const table: BqTable = found.table;
    const settings = sub.topic?.config.schemaSettings as SchemaSettings | undefined;
    const current = c.useTopicSchema && settings?.schema
      ? this.revision(settings.lastRevisionId ? `${settings.schema}@${settings.lastRevisionId}` : settings.schema)
      : null;
    const topicFields = current ? this.decoder(current).fields : undefined;
    const why = checkFit({ table, writeMetadata: !!c.writeMetadata, dropUnknownFields: !!c.dropUnknownFields, topicFields, useTableSchema: !!c.useTableSchema });
    if (why) return "SCHEMA_MISMATCH";
    return {
      subscription: sub.config.name,
      table,
      writeMetadata: !!c.writeMetadata,
      dropUnknownFields: !!c.dropUnknownFields,
      mode: current ? "topic" : c.useTableSchema ? "table" : "data",
      topicRows: (m: StoredMessage) => {
        const name = m.attributes.googclient_schemaname;
        const rev = m.attributes.googclient_schemarevisionid;
        const r = name && rev ? this.revision(`${name}@${rev}`) : null;
        return r ? this.decoder(r) : null;
      },
    };
  }
}

/**
 * Import topics that read a stream: Confluent Cloud and Amazon MSK (the Kafka protocol,
 * kafka-source.ts) and Amazon Kinesis (kinesis-source.ts). A broker observer like StorageImports:
 * a topic created, updated, restored or deleted starts or stops its one reader. Each reader's
 * module (and its client library) is imported with the first topic of its kind, so a server
 * without such topics never loads them (idle RSS). What a reader has published is recorded per
 * partition or shard in the ledger (DATA_DIR/stream-imports.json with --data-dir), so a restart
 * goes on where it stopped; the source's state and the topic's follow what the reader finds.
 */
import type { Broker } from "../core/broker.ts";
import type { Clock } from "../core/clock.ts";
import { platformLogSeverity, streamSourceOf, type StreamSourceKind, type StreamSourceView } from "../core/kinds/storage/ingestion-config.ts";
import type { MessageInput } from "../core/message.ts";
import { log } from "../runtime/log.ts";
import { ImportLedger } from "./ledger.ts";
import { publishChunk } from "./publish.ts";
import type { ReadRecord, ReaderContext, SourceReader } from "./reader-loop.ts";
import { TopicImports, type TopicImport } from "./topic-imports.ts";

/** How the readers reach their sources (config.ts). */
export interface StreamSettings {
  /** MSK cluster ARN → Kafka bootstrap host:port. */
  mskBootstrap: ReadonlyMap<string, string>;
  /** MECHANISM:user:password, or "". */
  kafkaSasl: string;
  /** The Kinesis endpoint URL, or "". */
  kinesisEndpoint: string;
}

type Starter = (source: StreamSourceView["settings"], ctx: ReaderContext, settings: StreamSettings) => Promise<SourceReader | null>;

/** Each kind's reader, imported on first use (literal import()s, so `bun build --compile` bundles them). */
const STARTERS: Record<StreamSourceKind, Starter> = {
  confluentCloud: (s, ctx, st) =>
    import("./kafka-source.ts").then((m) =>
      m.readKafka({ bootstrap: String(s.bootstrapServer), topic: String(s.topic), sasl: st.kafkaSasl, unreachable: "UNREACHABLE_BOOTSTRAP_SERVER", denied: "CONFLUENT_CLOUD_PERMISSION_DENIED" }, ctx),
    ),
  awsMsk: async (s, ctx, st) => {
    const bootstrap = st.mskBootstrap.get(String(s.clusterArn));
    if (!bootstrap) return null; // unmapped: the CLUSTER_NOT_FOUND the settings start with
    const m = await import("./kafka-source.ts");
    return m.readKafka({ bootstrap, topic: String(s.topic), sasl: st.kafkaSasl, unreachable: "CLUSTER_NOT_FOUND", denied: "MSK_PERMISSION_DENIED" }, ctx);
  },
  awsKinesis: async (s, ctx, st) => {
    if (!st.kinesisEndpoint) return null; // no endpoint: the STREAM_NOT_FOUND the settings start with
    const m = await import("./kinesis-source.ts");
    return m.readKinesis({ endpoint: st.kinesisEndpoint, streamArn: String(s.streamArn), consumerArn: String(s.consumerArn ?? "") }, ctx);
  },
};

const CHUNK = 500;

interface Import extends TopicImport {
  kind: StreamSourceKind;
  settings: StreamSourceView["settings"];
  reader: SourceReader | null;
  stopped: boolean;
}

export class StreamImports extends TopicImports<Import> {
  constructor(
    broker: Broker,
    private clock: Clock,
    private settings: StreamSettings,
    private ledger: ImportLedger<string> = new ImportLedger<string>(null),
  ) {
    super(broker);
  }

  protected sourceOf(settings: unknown) {
    const source = streamSourceOf(settings);
    return source ? { field: source.kind, settings: source.settings } : null;
  }

  protected create(name: string, key: string, source: { field: string; settings: Record<string, unknown> }): Import {
    return { topic: name, key, field: source.field, kind: source.field as StreamSourceKind, settings: source.settings, reader: null, stopped: false };
  }

  protected begin(imp: Import): void {
    this.ledger.begin(imp.topic, imp.key);
    STARTERS[imp.kind](imp.settings, this.context(imp), this.settings).then(
      (reader) => {
        if (imp.stopped) reader?.stop();
        else imp.reader = reader;
      },
      (e) => log.warn(`import topic ${imp.topic}: its ${imp.kind} reader did not start: ${(e as Error).message}`),
    );
  }

  protected forget(name: string): void {
    this.ledger.forget(name);
  }

  protected halt(imp: Import): void {
    imp.stopped = true;
    imp.reader?.stop();
    imp.reader = null;
  }

  protected override live(imp: Import): boolean {
    return !imp.stopped && super.live(imp);
  }

  private context(imp: Import): ReaderContext {
    return {
      clock: this.clock,
      position: (part) => this.ledger.position(imp.topic, part),
      deliver: (part, records) => this.deliver(imp, part, records),
      setState: (state) => {
        if (this.live(imp)) this.setState(imp, state);
      },
      failed: (count, why) => this.failed(imp, count, why),
      live: () => this.live(imp),
    };
  }

  /**
   * The records' messages grouped by ordering key (a Publish carries one key; the order within a
   * key is kept, which is all Pub/Sub orders by), ≤ CHUNK per publish; then the position after the
   * records taken is recorded once. When the broker stops taking messages (memory budget), what
   * was taken is the records before the first one not published (records of other keys after it
   * that were published come again with the next read: at least once, never lost).
   */
  private deliver(imp: Import, part: string, records: readonly ReadRecord[]): number {
    if (!this.live(imp)) return 0;
    const f = this.figures.get(imp.topic)!;
    const groups = new Map<string, number[]>();
    records.forEach((r, i) => {
      if (!r.message) return;
      const key = r.message.orderingKey ?? "";
      const g = groups.get(key);
      if (g) g.push(i);
      else groups.set(key, [i]);
    });
    let taken = records.length;
    const pending = [...groups.values()];
    outer: for (let g = 0; g < pending.length; g++) {
      const idx = pending[g];
      for (let c = 0; c < idx.length; c += CHUNK) {
        const slice = idx.slice(c, c + CHUNK);
        const outcome = publishChunk(this.broker, imp.topic, slice.map((i) => records[i].message!));
        if (outcome === "wait") {
          taken = Math.min(slice[0], ...pending.slice(g + 1).map((rest) => rest[0]));
          break outer;
        }
        f.messages += outcome.published;
        if (outcome.failed) this.failed(imp, outcome.failed, "refused by the topic (size, schema or transform)");
      }
    }
    if (taken > 0) this.ledger.mark(imp.topic, part, records[taken - 1].next);
    return taken;
  }

  private failed(imp: Import, count: number, why: string): void {
    const f = this.figures.get(imp.topic);
    if (f) f.failed += count;
    const severity = platformLogSeverity(this.config(imp.topic)?.ingestionDataSourceSettings);
    if (!severity) return;
    const line = `import topic ${imp.topic}: ${count} record(s) not ingested: ${why}`;
    if (severity === "ERROR") log.error(line);
    else if (severity === "WARNING") log.warn(line);
    else if (severity === "INFO") log.info(line);
    else log.debug(line);
  }
}

/**
 * A Kafka topic read into an import topic (Confluent Cloud, Amazon MSK), with @platformatic/kafka
 * (pure JavaScript; imported only by stream-imports.ts when a Kafka import topic exists). No
 * consumer group: every partition is fetched from the position the ledger holds (the earliest
 * offset the first time), so positions live with the emulator's data, not the broker's. The
 * fetch long-polls the partition leaders (the Kafka protocol's own wait; no timer of ours), the
 * topic's metadata is looked at again every metadata.max.age.ms (new partitions), and each record
 * fetched is published, in partition order per key, before its position is recorded. What
 * the broker answers sets the source's state; a failure closes the connection and tries again
 * after a backoff (reader-loop.ts).
 */
import { Consumer, type SASLMechanismValue } from "@platformatic/kafka";
import { kafkaMessage } from "./record-messages.ts";
import { ReaderLoop, type ReadRecord, type ReaderContext, type SourceReader } from "./reader-loop.ts";

export interface KafkaSourceConfig {
  bootstrap: string;
  topic: string;
  /** MECHANISM:user:password, or "" for none. */
  sasl: string;
  /** The source's state while the broker cannot be reached, and while it refuses us. */
  unreachable: string;
  denied: string;
}

/** Kafka's default metadata.max.age.ms. */
const METADATA_MAX_AGE_MS = 300_000;
/** How long the broker holds a fetch that found nothing new (the protocol's long poll). */
const FETCH_WAIT_MS = 500;
const FETCH_MAX_BYTES = 8 * 2 ** 20;
const PARTITION_MAX_BYTES = 2 ** 20;
/** Kafka's ListOffsets timestamp for the earliest offset. */
const EARLIEST = -2n;
/** RecordBatch attributes bit 5: a control batch (transaction markers), which holds no records of the topic. */
const CONTROL_BATCH = 0x20;

const DENIED = new Set(["TOPIC_AUTHORIZATION_FAILED", "CLUSTER_AUTHORIZATION_FAILED", "SASL_AUTHENTICATION_FAILED", "ILLEGAL_SASL_STATE", "UNSUPPORTED_SASL_MECHANISM", "GROUP_AUTHORIZATION_FAILED"]);
const TOPIC_GONE = new Set(["UNKNOWN_TOPIC_OR_PARTITION", "UNKNOWN_TOPIC_ID", "INCONSISTENT_TOPIC_ID", "Unknown topic"]);
/** A connection that never opened: the broker is not there. */
const CONNECT_ERRORS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "ECONNRESET"]);

class TopicNotFound extends Error {}

interface Partition {
  index: number;
  leader: number;
  offset: bigint;
}

export function readKafka(cfg: KafkaSourceConfig, ctx: ReaderContext): SourceReader {
  const reader = new KafkaReader(cfg, ctx);
  void reader.run();
  return reader;
}

class KafkaReader extends ReaderLoop {
  private client: Consumer | null = null;

  constructor(
    private cfg: KafkaSourceConfig,
    ctx: ReaderContext,
  ) {
    super(ctx);
  }

  protected async release(): Promise<void> {
    const c = this.client;
    this.client = null;
    await c?.close(true).catch(() => {});
  }

  /** One connection: the topic's partitions, their positions, then fetch until something fails. */
  protected async session(): Promise<void> {
    const client = new Consumer({
      clientId: "pubsub-emulator-import",
      groupId: "pubsub-emulator-import", // required by the client; no group is joined
      bootstrapBrokers: [this.cfg.bootstrap],
      retries: 0,
      timeout: 10_000,
      ...(this.cfg.sasl ? { sasl: sasl(this.cfg.sasl) } : {}),
    });
    this.client = client;
    let { id, parts } = await this.partitions(client, []);
    let checked = this.ctx.clock.now();
    this.active();
    while (this.running() && this.client === client) {
      // Kafka clients look at the topic's metadata again every metadata.max.age.ms (5 min by default):
      // partitions added since are read from their earliest offset.
      if (this.ctx.clock.now() - checked >= METADATA_MAX_AGE_MS) {
        ({ id, parts } = await this.partitions(client, parts));
        checked = this.ctx.clock.now();
      }
      const leaders = Map.groupBy(parts, (p) => p.leader);
      let paused = false;
      await Promise.all(
        [...leaders].map(async ([node, ps]) => {
          if (!(await this.fetchOnce(client, id, node, ps))) paused = true;
        }),
      );
      // The broker could not take every record (memory budget): read them again a little later.
      if (paused && this.running()) await this.sleep(this.backoff);
    }
  }

  /** The topic's id and partitions; each one not in `known` at its saved position (the earliest offset the first time). */
  private async partitions(client: Consumer, known: Partition[]): Promise<{ id: string; parts: Partition[] }> {
    const md = await client.metadata({ topics: [this.cfg.topic], autocreateTopics: false, forceUpdate: true });
    const topic = md.topics.get(this.cfg.topic);
    if (!topic) throw new TopicNotFound();
    const earliest = await this.earliest(client);
    const parts: Partition[] = topic.partitions.map((p, index) => {
      const had = known.find((k) => k.index === index);
      if (had) return { ...had, leader: p.leader };
      const saved = this.ctx.position(String(index));
      const from = earliest[index] ?? 0n;
      const offset = saved === undefined ? from : BigInt(saved);
      // Records the broker no longer keeps (retention) cannot be read: go on from the oldest it has.
      return { index, leader: p.leader, offset: offset < from ? from : offset };
    });
    return { id: topic.id, parts };
  }

  private async earliest(client: Consumer): Promise<bigint[]> {
    const offsets = await client.listOffsets({ topics: [this.cfg.topic], timestamp: EARLIEST });
    return offsets.get(this.cfg.topic) ?? [];
  }

  /** One fetch from one leader; false when some records were not taken. */
  private async fetchOnce(client: Consumer, topicId: string, node: number, parts: Partition[]): Promise<boolean> {
    let res;
    try {
      res = await client.fetch({
        node,
        maxWaitTime: FETCH_WAIT_MS,
        minBytes: 1,
        maxBytes: FETCH_MAX_BYTES,
        topics: [{ topicId, partitions: parts.map((p) => ({ partition: p.index, fetchOffset: p.offset, currentLeaderEpoch: -1, lastFetchedEpoch: -1, partitionMaxBytes: PARTITION_MAX_BYTES })) }],
      });
    } catch (e) {
      if (!errorIds(e).has("OFFSET_OUT_OF_RANGE")) throw e;
      const earliest = await this.earliest(client);
      for (const p of parts) if (p.offset < (earliest[p.index] ?? 0n)) p.offset = earliest[p.index];
      return true;
    }
    if (!this.running()) return true;
    let all = true;
    for (const r of res.responses) {
      for (const pr of r.partitions) {
        const p = parts.find((x) => x.index === pr.partitionIndex);
        if (!p || !pr.records?.length) continue;
        const records: ReadRecord[] = [];
        let empty = 0;
        for (const batch of pr.records) {
          if (batch.attributes & CONTROL_BATCH) continue;
          for (const rec of batch.records) {
            const offset = batch.firstOffset + BigInt(rec.offsetDelta);
            if (offset < p.offset) continue; // a batch starts before the offset asked for
            const { message } = kafkaMessage(rec);
            if (!message) empty++;
            records.push({ message, next: String(offset + 1n) });
          }
          // A batch whose records were all compacted away still moves the position past it.
          const last = batch.firstOffset + BigInt(batch.lastOffsetDelta) + 1n;
          if (!batch.records.length && last > p.offset) records.push({ message: null, next: String(last) });
        }
        if (!records.length) continue;
        if (empty) this.ctx.failed(empty, "a record with no value and no headers makes an empty message");
        const taken = this.ctx.deliver(String(p.index), records);
        if (taken > 0) p.offset = BigInt(records[taken - 1].next);
        if (taken < records.length) all = false;
      }
    }
    return all;
  }

  /** The source's state for what went wrong. */
  protected stateOf(e: unknown): string {
    if (e instanceof TopicNotFound) return "TOPIC_NOT_FOUND";
    const ids = errorIds(e);
    for (const id of ids) if (DENIED.has(id)) return this.cfg.denied;
    for (const id of ids) if (TOPIC_GONE.has(id)) return "TOPIC_NOT_FOUND";
    for (const id of ids) if (CONNECT_ERRORS.has(id)) return this.cfg.unreachable;
    // A broker that took the connection and then closed it asked for a login we did not give (or refused ours).
    if (ids.has("closed")) return this.cfg.denied;
    return this.cfg.unreachable;
  }
}

/** The protocol error ids, system error codes and messages in an error and everything it wraps. */
function errorIds(e: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (!e || typeof e !== "object" || depth > 6) return out;
  const x = e as { apiId?: unknown; code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof x.apiId === "string") out.add(x.apiId);
  if (typeof x.code === "string") out.add(x.code);
  if (typeof x.message === "string") {
    if (x.message.startsWith("Unknown topic")) out.add("Unknown topic");
    if (/^Connection closed/.test(x.message)) out.add("closed");
  }
  const nested = x.errors && typeof x.errors === "object" ? Object.values(x.errors as object) : [];
  for (const n of nested) errorIds(n, out, depth + 1);
  if (x.cause) errorIds(x.cause, out, depth + 1);
  return out;
}

function sasl(spec: string): { mechanism: SASLMechanismValue; username: string; password: string } {
  const [mechanism, username, ...rest] = spec.split(":");
  return { mechanism: mechanism as SASLMechanismValue, username, password: rest.join(":") };
}

/**
 * A Kinesis data stream read into an import topic, with the AWS SDK for JavaScript v3 (imported
 * only by stream-imports.ts when a Kinesis import topic exists). The stream is named by the last
 * part of stream_arn and its region by the ARN's; requests go to the configured endpoint over
 * HTTP/1.1 (local engines speak neither the SDK's default HTTP/2 nor TLS), signed with fixed
 * local credentials: aws_role_arn and gcp_service_account are not used. Every shard is read with
 * GetRecords from the sequence number the ledger holds (TRIM_HORIZON the first time): polling is
 * Kinesis's protocol, once a second per stream while nothing new comes, at once while records do.
 * consumer_arn is checked with DescribeStreamConsumer where the engine has it (CONSUMER_NOT_FOUND
 * when it answers that it does not exist); the records are still polled, not pushed (enhanced
 * fan-out's SubscribeToShard needs HTTP/2, which kinesalite and most local engines do not serve).
 */
import { DescribeStreamConsumerCommand, GetRecordsCommand, GetShardIteratorCommand, KinesisClient, ListShardsCommand, type Shard } from "@aws-sdk/client-kinesis";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { kinesisMessage } from "./record-messages.ts";
import { ReaderLoop, type ReadRecord, type ReaderContext, type SourceReader } from "./reader-loop.ts";

export interface KinesisSourceConfig {
  endpoint: string;
  streamArn: string;
  consumerArn: string;
}

/** GetRecords' quota is 5 calls a second per shard; AWS's own consumers wait 1 s when a shard had nothing. */
const IDLE_POLL_MS = 1000;
const RECORDS_PER_CALL = 1000;
const MAX_SHARDS = 1000;

const DENIED = new Set(["AccessDeniedException", "UnrecognizedClientException", "InvalidSignatureException", "IncompleteSignature", "MissingAuthenticationToken", "KMSAccessDeniedException"]);

interface ShardCursor {
  id: string;
  iterator: string | null;
}

export function readKinesis(cfg: KinesisSourceConfig, ctx: ReaderContext): SourceReader {
  const reader = new KinesisReader(cfg, ctx);
  void reader.run();
  return reader;
}

/** arn:aws:kinesis:REGION:ACCOUNT:stream/NAME → its region and name. */
function parseArn(arn: string): { region: string; stream: string } {
  const parts = arn.split(":");
  const resource = parts.slice(5).join(":");
  return { region: parts[3] || "us-east-1", stream: resource.startsWith("stream/") ? resource.slice(7).split("/")[0] : resource };
}

class KinesisReader extends ReaderLoop {
  private client: KinesisClient | null = null;
  private stream: string;
  private region: string;

  constructor(
    private cfg: KinesisSourceConfig,
    ctx: ReaderContext,
  ) {
    super(ctx);
    ({ stream: this.stream, region: this.region } = parseArn(cfg.streamArn));
  }

  protected async release(): Promise<void> {
    this.client?.destroy();
    this.client = null;
  }

  protected async session(): Promise<void> {
    const client = new KinesisClient({
      endpoint: this.cfg.endpoint,
      region: this.region,
      credentials: { accessKeyId: "pubsub-emulator", secretAccessKey: "pubsub-emulator" },
      requestHandler: new NodeHttpHandler({ connectionTimeout: 5000, requestTimeout: 30_000 }),
      maxAttempts: 1,
    });
    this.client = client;
    // The stream first: a consumer of a stream that is not there is not there either.
    let shards = await this.cursors(client);
    await this.checkConsumer(client);
    this.active();
    while (this.running() && this.client === client) {
      let any = false;
      let closed = false;
      for (const s of shards) {
        if (!this.running()) return;
        const got = await this.readShard(client, s);
        any ||= got;
        if (s.iterator === null) closed = true;
      }
      // A shard that closed (resharding) has children to read: list the shards again.
      if (closed) shards = await this.cursors(client);
      if (!any && this.running()) await this.sleep(IDLE_POLL_MS);
    }
  }

  private async checkConsumer(client: KinesisClient): Promise<void> {
    if (!this.cfg.consumerArn) return;
    try {
      await client.send(new DescribeStreamConsumerCommand({ ConsumerARN: this.cfg.consumerArn }));
    } catch (e) {
      const name = (e as { name?: string }).name ?? "";
      if (name === "ResourceNotFoundException") throw Object.assign(new Error("consumer"), { consumerMissing: true });
      if (DENIED.has(name)) throw e;
      // UnknownOperationException and the like: the engine has no enhanced fan-out; read by polling.
    }
  }

  /** Every open shard (parents before children, as ListShards gives them), each at its saved position. */
  private async cursors(client: KinesisClient): Promise<ShardCursor[]> {
    const shards: Shard[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListShardsCommand(token ? { NextToken: token } : { StreamName: this.stream }));
      shards.push(...(page.Shards ?? []));
      token = page.NextToken;
    } while (token && shards.length < MAX_SHARDS);
    const out: ShardCursor[] = [];
    for (const s of shards) {
      if (!s.ShardId) continue;
      const saved = this.ctx.position(s.ShardId);
      if (saved === "closed") continue;
      out.push({ id: s.ShardId, iterator: await this.iterator(client, s.ShardId, saved) });
    }
    return out;
  }

  private async iterator(client: KinesisClient, shard: string, after: string | undefined): Promise<string | null> {
    const res = await client.send(
      new GetShardIteratorCommand(
        after ? { StreamName: this.stream, ShardId: shard, ShardIteratorType: "AFTER_SEQUENCE_NUMBER", StartingSequenceNumber: after } : { StreamName: this.stream, ShardId: shard, ShardIteratorType: "TRIM_HORIZON" },
      ),
    );
    return res.ShardIterator ?? null;
  }

  /** One GetRecords on one shard; true when it returned records. */
  private async readShard(client: KinesisClient, s: ShardCursor): Promise<boolean> {
    if (!s.iterator) return false;
    const res = await client.send(new GetRecordsCommand({ ShardIterator: s.iterator, Limit: RECORDS_PER_CALL }));
    if (!this.running()) return false;
    const records: ReadRecord[] = [];
    let empty = 0;
    for (const r of res.Records ?? []) {
      if (!r.SequenceNumber) continue;
      const message = kinesisMessage(r.Data, r.PartitionKey);
      if (!message) empty++;
      records.push({ message, next: r.SequenceNumber });
    }
    if (empty) this.ctx.failed(empty, "a record with no data makes an empty message");
    const taken = records.length ? this.ctx.deliver(s.id, records) : 0;
    if (taken < records.length) {
      // The broker could not take them all (memory budget): read again after the last one taken, a little later.
      const after = taken > 0 ? records[taken - 1].next : this.ctx.position(s.id);
      s.iterator = await this.iterator(client, s.id, after);
      await this.sleep(this.backoff);
      return true;
    }
    s.iterator = res.NextShardIterator ?? null;
    if (s.iterator === null) this.ctx.deliver(s.id, [{ message: null, next: "closed" }]);
    return records.length > 0;
  }

  protected stateOf(e: unknown): string | null {
    if ((e as { consumerMissing?: boolean }).consumerMissing) return "CONSUMER_NOT_FOUND";
    const name = (e as { name?: string }).name ?? "";
    if (name === "ExpiredIteratorException") return null; // read too slowly: a new session gets new iterators
    if (DENIED.has(name)) return "KINESIS_PERMISSION_DENIED";
    // The stream is not there, or neither is the endpoint: nothing to read either way.
    return "STREAM_NOT_FOUND";
  }
}

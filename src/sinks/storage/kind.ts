/**
 * The Cloud Storage delivery kind: messages batched per subscription (core/kinds/storage/batches.ts)
 * into objects named as the real service names them, written to the target, and acknowledged only
 * once their object is in place. No target, or a missing bucket, is NOT_FOUND; delivery pauses and
 * retries on the Clock, so it resumes by itself once the bucket exists.
 */
import type { Clock } from "../../core/clock.ts";
import type { ExportKind, ExportStatus, SinkResult } from "../../core/kinds/export-delivery.ts";
import { StorageBatches, type StorageBatch } from "../../core/kinds/storage/batches.ts";
import { batchLimits, storageConfigOf } from "../../core/kinds/storage/config.ts";
import { objectName } from "../../core/kinds/storage/object-names.ts";
import { recordSize } from "../../core/kinds/storage/records.ts";
import type { Delivery } from "../../core/message.ts";
import type { SubscriptionResource } from "../../core/resources.ts";
import type { SchemaRegistry } from "../../core/schemas/registry.ts";
import type { SchemaSettings } from "../../core/schemas/topic-schema.ts";
import type { Subscription } from "../../core/subscription/subscription.ts";
import { encodeObject, type ObjectBody } from "./encode.ts";
import type { StorageTarget } from "./targets.ts";

/** Beyond max_duration, how long a closed batch's messages stay leased while the object is written. */
const WRITE_MARGIN_SECONDS = 600;
/**
 * Most messages in one delivery to the writer. An ordering key's messages come one delivery at a
 * time (the next once the last is acked, that is once its object is written), so a delivery takes
 * as much of a key as an object holds.
 */
const MAX_DELIVERY = 10_000;

export class CloudStorageKind implements ExportKind {
  readonly name = "cloud_storage";
  readonly field = "cloudStorageConfig" as const;
  readonly batches: StorageBatches;

  constructor(
    readonly target: StorageTarget | null,
    clock: Clock,
    private schemas?: () => SchemaRegistry,
  ) {
    this.batches = new StorageBatches(clock, (d, config) => recordSize(config, d.message), (sub, batch) => this.flush(sub, batch));
  }

  applies(config: SubscriptionResource): boolean {
    return !!storageConfigOf(config)?.bucket;
  }

  setState(config: SubscriptionResource, state: string): void {
    const c = storageConfigOf(config);
    if (c) c.state = state;
  }

  consumerLimits(config: SubscriptionResource) {
    const l = batchLimits(storageConfigOf(config)!);
    // Twice a batch, so the next one fills while the last is written.
    return {
      leaseSeconds: Math.ceil(l.durationMs / 1000) + WRITE_MARGIN_SECONDS,
      maxOutstandingMessages: Number.isFinite(l.maxMessages) ? 2 * l.maxMessages : 0,
      maxOutstandingBytes: Number.isFinite(l.maxBytes) ? 2 * l.maxBytes : 0,
      maxBatch: Math.min(MAX_DELIVERY, l.maxMessages),
    };
  }

  details(sub: Subscription): Partial<ExportStatus> {
    const open = this.batches.peek(sub);
    const w = this.batches.figures(sub);
    return {
      objects: w.objects,
      bytes: w.bytes,
      openBatch: open ? { messages: open.deliveries.length, bytes: open.bytes, startedAt: open.startedAt, closesAt: open.closesAt } : null,
    };
  }

  async probe(sub: Subscription): Promise<string> {
    if (!this.target) return "NOT_FOUND";
    return this.target.bucketState(storageConfigOf(sub.config)!.bucket!);
  }

  async write(sub: Subscription, batch: Delivery[]): Promise<SinkResult> {
    if (!this.target) return { state: "NOT_FOUND", written: [] };
    // Checked before batching, so messages wait in the subscription (not in a batch) while there is no bucket.
    const state = await this.target.bucketState(storageConfigOf(sub.config)!.bucket!);
    if (state !== "ACTIVE") return { state, written: [] };
    this.setState(sub.config, "ACTIVE");
    return this.batches.add(sub, batch);
  }

  private async flush(sub: Subscription, batch: StorageBatch): Promise<number> {
    const c = storageConfigOf(batch.config)!;
    const topic = this.schemas ? { registry: this.schemas(), settings: sub.topic?.config.schemaSettings as SchemaSettings | undefined } : undefined;
    let body: ObjectBody;
    try {
      body = encodeObject(batch, topic);
    } catch (e) {
      throw e === "SCHEMA_MISMATCH" ? e : "ACTIVE";
    }
    return await this.target!.put(c.bucket!, objectName(c, batch.startedAt, crypto.randomUUID()), body);
  }
}

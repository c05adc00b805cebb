/**
 * Cloud Storage import topics: each object of the topic's bucket that matches its match_glob and
 * minimum_object_create_time becomes messages once (object-messages.ts), published through the
 * broker (so topic schemas and transforms apply). The bucket is listed when the topic is created,
 * updated or restored, when the storage directory reports a change, and every SCAN_INTERVAL on
 * the emulator's clock (a Cloud Storage emulator tells nobody about new objects). The source's
 * state is BUCKET_NOT_FOUND or CLOUD_STORAGE_PERMISSION_DENIED while the bucket cannot be read,
 * the topic's INGESTION_RESOURCE_ERROR; ACTIVE again once it can.
 */
import type { Broker } from "../core/broker.ts";
import type { Clock } from "../core/clock.ts";
import { cloudStorageSourceOf, inputFormatOf, type CloudStorageSourceView } from "../core/kinds/storage/ingestion-config.ts";
import type { MessageInput } from "../core/message.ts";
import type { StorageObjectInfo, StorageTarget } from "../sinks/storage/targets.ts";
import { ImportLedger } from "./ledger.ts";
import { objectMessages } from "./object-messages.ts";
import { publishChunk } from "./publish.ts";
import { TopicImports, type TopicImport } from "./topic-imports.ts";

export const SCAN_INTERVAL_MS = 10_000;
const CHUNK = 500;
/** An object is read whole before it is split into messages; larger ones are skipped as failures. */
export const MAX_IMPORT_OBJECT_BYTES = 256 * 1024 * 1024;

interface Import extends TopicImport {
  source: CloudStorageSourceView;
  timer: unknown;
  scanning: boolean;
  again: boolean;
  glob: { match(name: string): boolean } | null;
}

export class StorageImports extends TopicImports<Import> {
  private unwatch: (() => void) | null = null;

  constructor(
    broker: Broker,
    private target: StorageTarget | null,
    private clock: Clock,
    private ledger: ImportLedger = new ImportLedger(null),
  ) {
    super(broker);
  }

  override start(): void {
    this.unwatch = this.target?.watch?.((bucket) => this.bucketChanged(bucket)) ?? null;
    super.start();
  }

  override stop(): void {
    this.unwatch?.();
    super.stop();
  }

  /** Scans now (tests, the operator API). */
  async scanNow(topic: string): Promise<void> {
    const imp = this.imports.get(topic);
    if (imp) await this.scan(imp);
  }

  protected sourceOf(settings: unknown) {
    const source = cloudStorageSourceOf(settings);
    return source ? { field: "cloudStorage", settings: source as unknown as Record<string, unknown> } : null;
  }

  protected create(name: string, key: string, { settings }: { settings: Record<string, unknown> }): Import {
    const source = settings as unknown as CloudStorageSourceView;
    const glob = source.matchGlob ? new Bun.Glob(source.matchGlob) : null;
    return { topic: name, key, field: "cloudStorage", source, timer: null, scanning: false, again: false, glob };
  }

  protected begin(imp: Import): void {
    this.ledger.begin(imp.topic, imp.key);
    void this.scan(imp);
  }

  protected forget(name: string): void {
    this.ledger.forget(name);
  }

  protected halt(imp: Import): void {
    if (imp.timer !== null) this.clock.cancel(imp.timer);
    imp.timer = null;
  }

  private bucketChanged(bucket: string): void {
    for (const imp of this.imports.values()) if (imp.source.bucket === bucket) void this.scan(imp);
  }

  private async scan(imp: Import): Promise<void> {
    if (imp.scanning) {
      imp.again = true;
      return;
    }
    imp.scanning = true;
    this.halt(imp);
    try {
      do {
        imp.again = false;
        await this.scanOnce(imp);
      } while (imp.again && this.live(imp));
    } catch {
      // Nothing a bucket holds may stop the server: the next scan tries again.
    } finally {
      imp.scanning = false;
      if (this.live(imp)) imp.timer = this.clock.schedule(this.clock.now() + SCAN_INTERVAL_MS, () => void this.scan(imp));
    }
  }

  private async scanOnce(imp: Import): Promise<void> {
    if (!this.target) return this.setState(imp, "BUCKET_NOT_FOUND");
    const state = await this.target.bucketState(imp.source.bucket);
    if (!this.live(imp)) return;
    if (state !== "ACTIVE") return this.setState(imp, state === "PERMISSION_DENIED" ? "CLOUD_STORAGE_PERMISSION_DENIED" : "BUCKET_NOT_FOUND");
    let objects: StorageObjectInfo[];
    try {
      objects = await this.target.list(imp.source.bucket);
    } catch {
      return this.setState(imp, "BUCKET_NOT_FOUND");
    }
    this.setState(imp, "ACTIVE");
    const min = timestampMs(imp.source.minimumObjectCreateTime);
    objects.sort((a, b) => a.created - b.created || (a.name < b.name ? -1 : 1));
    for (const o of objects) {
      if (!this.live(imp)) return;
      if (o.created < min || (imp.glob && !imp.glob.match(o.name))) continue;
      const id = `${o.name}\u0000${o.size}\u0000${o.created}`;
      const done = this.ledger.progress(imp.topic, id);
      if (done === "done") continue;
      if (!(await this.ingest(imp, o, id, done))) return;
    }
  }

  /** Publishes the object's messages from `from` on; false when publishing must wait (memory). */
  private async ingest(imp: Import, o: StorageObjectInfo, id: string, from: number): Promise<boolean> {
    let messages: MessageInput[];
    const f = this.figures.get(imp.topic)!;
    try {
      if (o.size > MAX_IMPORT_OBJECT_BYTES) throw new Error("too large");
      const bytes = await this.target!.get(imp.source.bucket, o.name);
      messages = await objectMessages(bytes, inputFormatOf(imp.source), imp.source.textFormat?.delimiter);
    } catch {
      f.failed++; // unreadable (not Avro, gone): skipped, as the real service logs a failure and moves on
      this.ledger.mark(imp.topic, id, "done");
      return true;
    }
    if (!this.live(imp)) return false;
    for (let i = from; i < messages.length; i += CHUNK) {
      const chunk = messages.slice(i, i + CHUNK);
      const outcome = publishChunk(this.broker, imp.topic, chunk);
      if (outcome === "wait") {
        this.ledger.mark(imp.topic, id, i);
        return false;
      }
      f.messages += outcome.published;
      f.failed += outcome.failed;
    }
    f.objects++;
    this.ledger.mark(imp.topic, id, "done");
    return true;
  }
}

function timestampMs(t: { seconds?: number | string; nanos?: number } | undefined): number {
  if (!t) return -Infinity;
  const ms = Number(t.seconds ?? 0) * 1000 + Number(t.nanos ?? 0) / 1e6;
  return Number.isFinite(ms) ? ms : -Infinity;
}

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
import { PubSubError } from "../core/errors.ts";
import { NullObserver, type ResourceChange, type ResourceKind } from "../core/events.ts";
import { cloudStorageSourceOf, inputFormatOf, type CloudStorageSourceView } from "../core/kinds/storage/ingestion-config.ts";
import type { MessageInput } from "../core/message.ts";
import type { TopicResource } from "../core/resources.ts";
import type { StorageObjectInfo, StorageTarget } from "../sinks/storage/targets.ts";
import { ImportLedger } from "./ledger.ts";
import { objectMessages } from "./object-messages.ts";

export const SCAN_INTERVAL_MS = 10_000;
const CHUNK = 500;
/** An object is read whole before it is split into messages; larger ones are skipped as failures. */
export const MAX_IMPORT_OBJECT_BYTES = 256 * 1024 * 1024;

interface Import {
  topic: string;
  /** The settings it was started with: a change starts over. */
  key: string;
  source: CloudStorageSourceView;
  timer: unknown;
  scanning: boolean;
  again: boolean;
  glob: { match(name: string): boolean } | null;
}

/** What the operator surface reads. */
export interface ImportStatusSource {
  status(topic: string): ImportStatus | null;
}

export interface ImportStatus {
  state: string;
  objects: number;
  messages: number;
  failed: number;
}

export class StorageImports extends NullObserver {
  private imports = new Map<string, Import>();
  private figures = new Map<string, ImportStatus>();
  private detach: (() => void) | null = null;
  private unwatch: (() => void) | null = null;
  private stopped = false;

  constructor(
    private broker: Broker,
    private target: StorageTarget | null,
    private clock: Clock,
    private ledger: ImportLedger = new ImportLedger(null),
  ) {
    super();
  }

  start(): void {
    this.detach = this.broker.observe(this);
    this.unwatch = this.target?.watch?.((bucket) => this.bucketChanged(bucket)) ?? null;
    for (const t of this.broker.resources().topics) this.sync(t.name);
  }

  stop(): void {
    this.stopped = true;
    this.detach?.();
    this.unwatch?.();
    for (const imp of this.imports.values()) this.cancel(imp);
    this.imports.clear();
  }

  status(topic: string): ImportStatus | null {
    return this.imports.has(topic) ? (this.figures.get(topic) ?? null) : null;
  }

  override resourceChanged(kind: ResourceKind, change: ResourceChange, name: string): void {
    if (kind !== "topic") return;
    // Called inside the broker's operation: nothing here may fail it.
    try {
      if (change === "deleted") this.drop(name, true);
      else this.sync(name);
    } catch {
      // a glob Bun cannot compile: the import waits for the next change
    }
  }

  /** Scans now (tests, the operator API). */
  async scanNow(topic: string): Promise<void> {
    const imp = this.imports.get(topic);
    if (imp) await this.scan(imp);
  }

  private config(name: string): TopicResource | null {
    try {
      return this.broker.getTopic(name);
    } catch {
      return null;
    }
  }

  private sync(name: string): void {
    if (this.stopped) return;
    const source = cloudStorageSourceOf(this.config(name)?.ingestionDataSourceSettings);
    if (!source) return this.drop(name, true);
    const { state: _state, ...rest } = source;
    const key = JSON.stringify(rest);
    const cur = this.imports.get(name);
    if (cur?.key === key) {
      this.setState(cur, this.figures.get(name)?.state ?? "ACTIVE");
      return;
    }
    this.drop(name, cur !== undefined);
    const glob = source.matchGlob ? new Bun.Glob(source.matchGlob) : null;
    const imp: Import = { topic: name, key, source, timer: null, scanning: false, again: false, glob };
    this.imports.set(name, imp);
    this.ledger.begin(name, key);
    this.figures.set(name, { state: "ACTIVE", objects: 0, messages: 0, failed: 0 });
    void this.scan(imp);
  }

  private drop(name: string, forget: boolean): void {
    const imp = this.imports.get(name);
    if (imp) this.cancel(imp);
    this.imports.delete(name);
    if (forget) {
      this.figures.delete(name);
      this.ledger.forget(name);
    }
  }

  private cancel(imp: Import): void {
    if (imp.timer !== null) this.clock.cancel(imp.timer);
    imp.timer = null;
  }

  private bucketChanged(bucket: string): void {
    for (const imp of this.imports.values()) if (imp.source.bucket === bucket) void this.scan(imp);
  }

  private setState(imp: Import, state: string): void {
    const f = this.figures.get(imp.topic);
    if (f) f.state = state;
    const t = this.config(imp.topic);
    const c = (t?.ingestionDataSourceSettings as { cloudStorage?: { state?: string } } | undefined)?.cloudStorage;
    if (!t || !c) return;
    c.state = state;
    t.state = state === "ACTIVE" ? "ACTIVE" : "INGESTION_RESOURCE_ERROR";
  }

  private live(imp: Import): boolean {
    return !this.stopped && this.imports.get(imp.topic) === imp;
  }

  private async scan(imp: Import): Promise<void> {
    if (imp.scanning) {
      imp.again = true;
      return;
    }
    imp.scanning = true;
    this.cancel(imp);
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
      const outcome = this.publish(imp.topic, chunk);
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

  private publish(topic: string, chunk: MessageInput[]): { published: number; failed: number } | "wait" {
    try {
      return { published: this.broker.publish(topic, chunk).length, failed: 0 };
    } catch (e) {
      if (!(e instanceof PubSubError) || e.code !== "INVALID_ARGUMENT") return "wait";
    }
    // One message the topic refuses (too large, not the topic's schema) is skipped; the others go.
    let published = 0;
    let failed = 0;
    for (const m of chunk) {
      try {
        published += this.broker.publish(topic, [m]).length;
      } catch (e) {
        if (!(e instanceof PubSubError) || e.code !== "INVALID_ARGUMENT") return "wait";
        failed++;
      }
    }
    return { published, failed };
  }
}

function timestampMs(t: { seconds?: number | string; nanos?: number } | undefined): number {
  if (!t) return -Infinity;
  const ms = Number(t.seconds ?? 0) * 1000 + Number(t.nanos ?? 0) / 1e6;
  return Number.isFinite(ms) ? ms : -Infinity;
}

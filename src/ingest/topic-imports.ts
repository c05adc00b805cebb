/**
 * What every kind of import topic does the same way: a broker observer that starts a topic's
 * import when the topic is created, updated or restored with settings of its kind, starts it over
 * when they change, stops it when they go or the topic does; the figures /metrics and inspection
 * read; and the source's state written into the topic's settings (the topic's own state
 * INGESTION_RESOURCE_ERROR unless the source is ACTIVE).
 */
import type { Broker } from "../core/broker.ts";
import { NullObserver, type ResourceChange, type ResourceKind } from "../core/events.ts";
import type { TopicResource } from "../core/resources.ts";

/** What the operator surface reads. */
export interface ImportStatusSource {
  status(topic: string): ImportStatus | null;
}

export interface ImportStatus {
  state: string;
  /** Cloud Storage objects ingested (0 for the stream sources). */
  objects: number;
  messages: number;
  failed: number;
}

export interface TopicImport {
  topic: string;
  /** The settings it was started with: a change starts over. */
  key: string;
  /** The settings field of its source (cloudStorage, confluentCloud, …). */
  field: string;
}

export abstract class TopicImports<I extends TopicImport> extends NullObserver implements ImportStatusSource {
  protected imports = new Map<string, I>();
  protected figures = new Map<string, ImportStatus>();
  protected stopped = false;
  private detach: (() => void) | null = null;

  constructor(protected broker: Broker) {
    super();
  }

  /** This kind's source in a topic's ingestion settings, or null. */
  protected abstract sourceOf(settings: unknown): { field: string; settings: Record<string, unknown> } | null;
  /** A new import of these settings (not started). */
  protected abstract create(name: string, key: string, source: { field: string; settings: Record<string, unknown> }): I;
  /** Starts reading (the import is already the topic's). */
  protected abstract begin(imp: I): void;
  /** Stops an import (timers, connections). */
  protected abstract halt(imp: I): void;
  /** Forgets what an import recorded (its ledger entry). */
  protected abstract forget(name: string): void;

  start(): void {
    this.detach = this.broker.observe(this);
    for (const t of this.broker.resources().topics) this.sync(t.name);
  }

  stop(): void {
    this.stopped = true;
    this.detach?.();
    for (const imp of this.imports.values()) this.halt(imp);
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
      // settings the import cannot start with (a glob Bun cannot compile): it waits for the next change
    }
  }

  protected config(name: string): TopicResource | null {
    try {
      return this.broker.topics.get(name);
    } catch {
      return null;
    }
  }

  private sync(name: string): void {
    if (this.stopped) return;
    const source = this.sourceOf(this.config(name)?.ingestionDataSourceSettings);
    if (!source) return this.drop(name, true);
    const { state, ...rest } = source.settings;
    const key = JSON.stringify(rest);
    const cur = this.imports.get(name);
    if (cur?.key === key) {
      // The settings were written again (an update of another field): the state found stands.
      const found = this.figures.get(name)?.state;
      if (found) this.setState(cur, found);
      return;
    }
    this.drop(name, cur !== undefined);
    const imp = this.create(name, key, source);
    this.imports.set(name, imp);
    this.figures.set(name, { state: typeof state === "string" && state ? state : "ACTIVE", objects: 0, messages: 0, failed: 0 });
    this.begin(imp);
  }

  protected drop(name: string, forget: boolean): void {
    const imp = this.imports.get(name);
    if (imp) this.halt(imp);
    this.imports.delete(name);
    if (forget) {
      this.figures.delete(name);
      this.forget(name);
    }
  }

  protected live(imp: I): boolean {
    return !this.stopped && this.imports.get(imp.topic) === imp;
  }

  protected setState(imp: I, state: string): void {
    const f = this.figures.get(imp.topic);
    if (f) f.state = state;
    const t = this.config(imp.topic);
    const c = (t?.ingestionDataSourceSettings as Record<string, { state?: string } | undefined> | undefined)?.[imp.field];
    if (!t || !c) return;
    c.state = state;
    t.state = state === "ACTIVE" ? "ACTIVE" : "INGESTION_RESOURCE_ERROR";
  }
}

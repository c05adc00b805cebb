/**
 * The lifecycle every per-resource feature implements once (delivery kinds, expiration, IAM,
 * transforms, the topic link…): a Collection calls each registered feature at each step, in the
 * order they were registered, so a new feature is one object and one registration instead of an
 * edit at every site where a resource is created, changed or dropped.
 *
 * Re-entrancy: a hook may call back into the broker only through its public verbs, never into the
 * collection that is calling it (an expiring subscription deletes itself through the broker, from a
 * timer, not from inside a hook).
 */
import { ProjectMap, type QuotaKind } from "./rules/quotas.ts";
import type { BrokerObserver } from "./events.ts";

/** Why a resource left its collection: both go the same removal path. */
export type Removal = "deleted" | "reset";

export interface Lifecycle<R, C> {
  /** A new resource, already stored. */
  created?(r: R): void;
  /** A resource rebuilt from the store at start. */
  restored?(r: R): void;
  /** Its config changed (already stored); `prev` is the one before. */
  updated?(r: R, prev: C): void;
  /** A subscription was detached from its topic. */
  detached?(r: R): void;
  /** Deleted or reset: called before its state is dropped and the store forgets it. */
  removed?(r: R, why: Removal): void;
  /** The server is stopping: no new work, no timers left. */
  stopped?(): void;
}

/** A feature that follows a resource's config: the same step after a create, a restart, an update. */
export function followsConfig<R, C>(step: (r: R) => void): Lifecycle<R, C> {
  return { created: step, restored: step, updated: (r) => step(r) };
}

/** Topics or subscriptions by name, and the features that follow each one's lifecycle. */
export class Collection<R extends { readonly name: string; config: C }, C> {
  /** Counts per project as resources come and go, for the quotas (quotas.ts). */
  private map = new ProjectMap<R>();

  constructor(
    private readonly kind: "topic" | "subscription",
    private readonly events: () => BrokerObserver | null,
    private readonly features: readonly Lifecycle<R, C>[],
  ) {}

  get(name: string): R | undefined {
    return this.map.get(name);
  }

  has(name: string): boolean {
    return this.map.has(name);
  }

  get size(): number {
    return this.map.size;
  }

  /** RESOURCE_EXHAUSTED when `name`'s project already holds `limit` of these. */
  admit(name: string, kind: QuotaKind, limit: number): void {
    this.map.admit(name, kind, limit);
  }

  values(): IterableIterator<R> {
    return this.map.values();
  }

  /** A resource enters: created (observers hear of it) or restored at start. */
  add(r: R, how: "created" | "restored"): void {
    this.map.set(r.name, r);
    if (how === "created") {
      for (const f of this.features) f.created?.(r);
      this.events()?.resourceChanged(this.kind, "created", r.name);
    } else for (const f of this.features) f.restored?.(r);
  }

  updated(r: R, prev: C): void {
    for (const f of this.features) f.updated?.(r, prev);
  }

  detached(r: R): void {
    for (const f of this.features) f.detached?.(r);
  }

  /** The one removal path of delete and reset: features let go, then `drop` forgets its state. */
  remove(r: R, why: Removal, drop: () => void): void {
    this.map.delete(r.name);
    for (const f of this.features) f.removed?.(r, why);
    drop();
    this.events()?.resourceChanged(this.kind, "deleted", r.name);
  }

  stopped(): void {
    for (const f of this.features) f.stopped?.();
  }
}

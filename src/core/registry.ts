/**
 * What Topics and Subscriptions share: a Collection, and lookup by name. A registry finds and
 * removes; the verbs that act on one resource live on the resource or on its own registry.
 */
import { notFound } from "./errors.ts";
import type { Collection } from "./lifecycle.ts";
import { parseName } from "./rules/names.ts";

export abstract class Registry<R extends { readonly name: string; config: C }, C> {
  protected abstract readonly all: Collection<R, C>;

  constructor(
    private readonly collection: "topics" | "subscriptions",
    /** The request field a missing name is reported under by default. */
    private readonly field: string,
  ) {}

  get size(): number {
    return this.all.size;
  }

  values(): IterableIterator<R> {
    return this.all.values();
  }

  /** The resource, or undefined: for callers that treat a missing one as a case, not an error. */
  find(name: string): R | undefined {
    return this.all.get(name);
  }

  /** The resource object itself; NOT_FOUND, or INVALID_ARGUMENT for a name that could never exist. */
  lookup(name: string, field = this.field): R {
    // Stored names were validated on create: validate only on a miss, to tell 3 from 5.
    const r = this.all.get(name);
    if (r) return r;
    parseName(name, this.collection, field);
    throw notFound(name);
  }
}

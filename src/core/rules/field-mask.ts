/**
 * Applies a google.protobuf.FieldMask (snake_case paths) from one resource onto another. Paths
 * come from the client, so only paths on the resource's allow-list are ever followed: a path
 * through an inherited property (`constructor`, `__proto__`, `toString`…) is an unknown field,
 * never a walk into built-in prototypes.
 */
import { echo } from "../bounded.ts";
import { invalid } from "../errors.ts";

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export interface MaskRules {
  kind: string;
  /** Every path that may be updated: top-level snake_case fields, and `field.sub_field` paths. */
  mutable: ReadonlySet<string>;
  /** Top-level fields that exist but may not be changed; named in the error. */
  immutable: ReadonlySet<string>;
}

/**
 * Returns a copy of `current` with every masked path taken from `update`. An empty mask, an
 * unknown path or an immutable one is INVALID_ARGUMENT naming the path.
 */
export function applyMask<T extends object>(current: T, update: Partial<T>, paths: readonly string[], rules: MaskRules): T {
  if (paths.length === 0) {
    throw invalid(`The update_mask in the Update${rules.kind}Request must be set, and must be non-empty.`);
  }
  const where = `Invalid update_mask provided in the Update${rules.kind}Request`;
  for (const path of paths) {
    const p = String(path);
    const dot = p.indexOf(".");
    if (rules.immutable.has(dot < 0 ? p : p.slice(0, dot))) throw invalid(`${where}: the field "${echo(p)}" is not mutable.`);
    if (!rules.mutable.has(p)) throw invalid(`${where}: "${echo(p)}" is not a known ${rules.kind} field.`);
  }
  const next = structuredClone(current) as Record<string, unknown>;
  for (const path of paths) setPath(next, update as Record<string, unknown>, path.split(".").map(camel));
  return next as T;
}

/** Copies the value at `keys` (allow-listed, so own data fields only) from `src` into `dst`. */
function setPath(dst: Record<string, unknown>, src: Record<string, unknown> | undefined, keys: string[]): void {
  const [k, ...rest] = keys;
  const value = src && Object.hasOwn(src, k) ? src[k] : undefined;
  if (rest.length === 0) {
    if (value === undefined || value === null) delete dst[k];
    else dst[k] = structuredClone(value);
    return;
  }
  const existing = Object.hasOwn(dst, k) ? dst[k] : undefined;
  const child = (typeof existing === "object" && existing !== null ? existing : {}) as Record<string, unknown>;
  dst[k] = child;
  setPath(child, typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined, rest);
}

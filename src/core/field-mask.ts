/** Applies a google.protobuf.FieldMask (snake_case paths) from one resource onto another. */
import { invalid } from "./errors.ts";

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export interface MaskRules {
  kind: string;
  /** Top-level snake_case fields that may be updated. */
  mutable: ReadonlySet<string>;
  /** Fields that exist but may not be changed; named in the error. */
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
  const next = structuredClone(current) as Record<string, unknown>;
  const src = update as Record<string, unknown>;
  for (const path of paths) {
    const segments = path.split(".");
    const top = segments[0];
    if (rules.immutable.has(top)) throw invalid(`Invalid update_mask provided in the Update${rules.kind}Request: the field "${path}" is not mutable.`);
    if (!rules.mutable.has(top)) throw invalid(`Invalid update_mask provided in the Update${rules.kind}Request: "${path}" is not a known ${rules.kind} field.`);
    setPath(next, src, segments.map(camel));
  }
  return next as T;
}

function setPath(dst: Record<string, unknown>, src: Record<string, unknown> | undefined, keys: string[]): void {
  const [k, ...rest] = keys;
  const value = src?.[k];
  if (rest.length === 0) {
    if (value === undefined || value === null) delete dst[k];
    else dst[k] = structuredClone(value);
    return;
  }
  const child = (dst[k] ?? {}) as Record<string, unknown>;
  dst[k] = child;
  setPath(child, value as Record<string, unknown> | undefined, rest);
}

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
    const unknown = invalid(`Invalid update_mask provided in the Update${rules.kind}Request: "${path}" is not a known ${rules.kind} field.`);
    if (!rules.mutable.has(top)) throw unknown;
    // A client path is never a property path into anything but our own plain objects.
    if (segments.some((seg) => UNSAFE.has(seg) || seg === "")) throw unknown;
    if (!setPath(next, src, segments.map(camel))) throw unknown;
  }
  return next as T;
}

const UNSAFE = new Set(["__proto__", "constructor", "prototype"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Copies one path; false when it runs through something that is not an object (a number, a list). */
function setPath(dst: Record<string, unknown>, src: Record<string, unknown> | undefined, keys: string[]): boolean {
  const [k, ...rest] = keys;
  const value = src && Object.hasOwn(src, k) ? src[k] : undefined;
  if (rest.length === 0) {
    if (value === undefined || value === null) delete dst[k];
    else dst[k] = structuredClone(value);
    return true;
  }
  const current = Object.hasOwn(dst, k) ? dst[k] : undefined;
  if (current !== undefined && !isObject(current)) return false;
  if (value !== undefined && value !== null && !isObject(value)) return false;
  // Clearing a sub-field of something unset on both sides changes nothing.
  if (current === undefined && (value === undefined || value === null)) return true;
  const child = current ?? {};
  dst[k] = child;
  return setPath(child, (value ?? undefined) as Record<string, unknown> | undefined, rest);
}

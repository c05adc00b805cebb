/** Readers for admin request fields: each checks type and range and throws a 400 naming the field. */
import { HttpError } from "./router.ts";

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration as proto JSON writes it ("10s", "1.5s") or with another unit ("250ms", "2m", "1h",
 * "1d"), or a number of milliseconds. At most `maxMs`.
 */
export function durationMs(body: Record<string, unknown>, field: string, maxMs: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  let ms: number;
  if (typeof v === "number") ms = v;
  else if (typeof v === "string") {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(v.trim());
    if (!m) throw new HttpError(400, `${field} must be a duration such as "10s", "250ms", "2m" or "1h" (got "${v.slice(0, 40)}").`);
    ms = Number(m[1]) * UNITS[m[2]];
  } else throw new HttpError(400, `${field} must be a duration string or a number of milliseconds.`);
  if (!Number.isFinite(ms) || ms < 0 || ms > maxMs) throw new HttpError(400, `${field} must be from 0 to ${maxMs} ms.`);
  return Math.round(ms);
}

/** An instant as an RFC 3339 string or milliseconds since the epoch. */
export function instantMs(body: Record<string, unknown>, field: string): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  const ms = typeof v === "number" ? v : typeof v === "string" ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw new HttpError(400, `${field} must be an RFC 3339 time such as "2030-01-01T00:00:00Z" or epoch milliseconds.`);
  return ms;
}

export function optionalString(body: Record<string, unknown>, field: string, maxLength = 1000): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.length > maxLength) throw new HttpError(400, `${field} must be a string of at most ${maxLength} characters.`);
  return v;
}

export function optionalNumber(body: Record<string, unknown>, field: string, min: number, max: number, integer = true): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !(v >= min && v <= max) || (integer && !Number.isInteger(v))) {
    throw new HttpError(400, `${field} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}.`);
  }
  return v;
}

/** A query-string integer (peek limits and the like), clamped to [min, max]. */
export function queryInt(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new HttpError(400, `${name} must be an integer.`);
  return Math.min(max, Math.max(min, n));
}

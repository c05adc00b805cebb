/**
 * Values as they land in a BigQuery row (the newline-delimited JSON the directory target
 * writes): INTEGER as a JSON number when safe and a decimal string beyond, BYTES as base64,
 * TIMESTAMP as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, DATE/TIME/DATETIME/NUMERIC as BigQuery's literals.
 * Each converter returns `BAD` when the value does not fit the column, which makes the message
 * unwritable (the real service nacks it, and dead-letters it once the attempts run out).
 */
export const BAD = Symbol("unwritable");
export type Cell = unknown;

const pad = (n: number | bigint, w: number) => String(n).padStart(w, "0");

const MIN_TS = -62135596800000000n; // 0001-01-01
const MAX_TS = 253402300799999999n; // 9999-12-31 23:59:59.999999

export function timestampFromMicros(micros: bigint): Cell {
  if (micros < MIN_TS || micros > MAX_TS) return BAD;
  const ms = Number(micros / 1000n) - (micros % 1000n < 0n ? 1 : 0);
  const d = new Date(ms);
  const frac = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(frac, 6)}Z`;
}

export const timestampFromMillis = (ms: number) => timestampFromMicros(BigInt(ms) * 1000n);

const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const TIME = /^(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;
const TS = /^(\d{4}-\d{1,2}-\d{1,2})(?:[T ](\d{1,2}:\d{2}:\d{2}(?:\.\d{1,6})?))?\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?)?$/i;

function dateParts(s: string): [number, number, number] | null {
  const m = DATE.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  t.setUTCFullYear(y);
  return y >= 1 && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d ? [y, mo, d] : null;
}

function timeParts(s: string): [number, number, number, string] | null {
  const m = TIME.exec(s);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3]) > 59) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3]), (m[4] ?? "").padEnd(6, "0")];
}

export function dateFromString(s: string): Cell {
  const p = dateParts(s);
  return p ? `${pad(p[0], 4)}-${pad(p[1], 2)}-${pad(p[2], 2)}` : BAD;
}

export function dateFromDays(days: number): Cell {
  if (!Number.isInteger(days) || days < -719162 || days > 2932896) return BAD;
  return new Date(days * 86_400_000).toISOString().slice(0, 10).replace(/^\+0*/, "").padStart(10, "0");
}

export function timeFromString(s: string): Cell {
  const p = timeParts(s);
  return p ? `${pad(p[0], 2)}:${pad(p[1], 2)}:${pad(p[2], 2)}.${p[3]}` : BAD;
}

export function timeFromMicros(micros: bigint): Cell {
  if (micros < 0n || micros >= 86_400_000_000n) return BAD;
  const s = micros / 1_000_000n;
  return `${pad(s / 3600n, 2)}:${pad((s / 60n) % 60n, 2)}:${pad(s % 60n, 2)}.${pad(micros % 1_000_000n, 6)}`;
}

export function datetimeFromString(s: string): Cell {
  const [d, t = "00:00:00"] = s.split(/[T ]/, 2);
  const date = dateFromString(d);
  const time = timeFromString(t);
  return date === BAD || time === BAD || s.split(/[T ]/).length > 2 ? BAD : `${date}T${time}`;
}

/** BigQuery's CivilTimeEncoder packing of a DATETIME into an int64 (year..micros in bit fields). */
export function datetimeFromPacked(v: bigint): Cell {
  const micros = v & 0xfffffn;
  const rest = v >> 20n;
  const [sec, min, hour] = [rest & 0x3fn, (rest >> 6n) & 0x3fn, (rest >> 12n) & 0x1fn];
  const [day, month, year] = [(rest >> 17n) & 0x1fn, (rest >> 22n) & 0xfn, (rest >> 26n) & 0x3fffn];
  const date = dateFromString(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`);
  const time = timeFromString(`${pad(hour, 2)}:${pad(min, 2)}:${pad(sec, 2)}.${pad(micros, 6)}`);
  return date === BAD || time === BAD || micros > 999_999n ? BAD : `${date}T${time}`;
}

export function timestampFromString(s: string): Cell {
  const m = TS.exec(s.trim());
  if (!m) return BAD;
  const date = dateParts(m[1]);
  const time = timeParts(m[2] ?? "00:00:00");
  if (!date || !time) return BAD;
  let offsetMin = 0;
  const zone = (m[3] ?? "Z").toUpperCase();
  if (zone !== "Z" && zone !== "UTC") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0));
  }
  // Date.UTC maps years 0-99 onto 1900-1999, so the year is set after.
  const d = new Date(Date.UTC(2000, date[1] - 1, date[2], time[0], time[1], time[2]));
  d.setUTCFullYear(date[0]);
  const micros = BigInt(d.getTime() - offsetMin * 60_000) * 1000n + BigInt(time[3]);
  return timestampFromMicros(micros);
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/** NUMERIC holds 29 integer and 9 fraction digits; BIGNUMERIC 38 and 38. */
export function numericFromString(s: string, big: boolean): Cell {
  const m = DECIMAL.exec(s.trim());
  if (!m || (!m[2] && !m[3])) return BAD;
  let digits = (m[2] || "") + (m[3] || "");
  let point = (m[2] || "").length + Number(m[4] ?? 0);
  digits = digits.replace(/^0+/, () => "");
  point -= (m[2] || "").length - (m[2] || "").replace(/^0+/, "").length;
  if (digits === "") return "0";
  const intPart = point > 0 ? digits.slice(0, point).padEnd(point, "0") : "0";
  let frac = point >= 0 ? digits.slice(point) : "0".repeat(-point) + digits;
  frac = frac.replace(/0+$/, "");
  const [maxInt, maxFrac] = big ? [38, 38] : [29, 9];
  if (intPart.replace(/^0+/, "").length > maxInt || frac.length > maxFrac) return BAD;
  return `${m[1] === "-" ? "-" : ""}${intPart.replace(/^0+(?=\d)/, "")}${frac ? "." + frac : ""}`;
}

export function numericFromNumber(n: number | bigint, big: boolean): Cell {
  if (typeof n === "number" && !Number.isFinite(n)) return BAD;
  return numericFromString(typeof n === "bigint" ? n.toString() : String(n), big);
}

/** An Avro `decimal`: big-endian two's complement unscaled value and the schema's scale. */
export function numericFromDecimalBytes(bytes: Uint8Array, scale: number, big: boolean): Cell {
  if (bytes.length === 0) return "0";
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  if (bytes[0] & 0x80) v -= 1n << BigInt(bytes.length * 8);
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(scale + 1, "0");
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return numericFromString((neg ? "-" : "") + text, big);
}

export function integerCell(v: number | bigint): Cell {
  const b = typeof v === "bigint" ? v : Number.isInteger(v) ? BigInt(v) : null;
  if (b === null || b > 9223372036854775807n || b < -9223372036854775808n) return BAD;
  return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b.toString();
}

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

export function jsonFromString(s: string): Cell {
  try {
    return JSON.parse(s);
  } catch {
    return BAD;
  }
}

/**
 * Object names as a Cloud Storage subscription forms them:
 * `<filename_prefix><UTC date time>_<unique part><filename_suffix>`. The date time follows
 * filename_datetime_format: the matchers YYYY or YY, MM, DD, hh, mm, ss (each required once), T and
 * Z or +00:00 (optional, once), and the delimiters - _ : / (any number of times). A format that
 * ends in a delimiter uses it in place of the `_` before the unique part. Without a format the
 * time reads `2023-09-25T04:10:00+00:00`, as in the real service's documentation.
 */

type Token = "YYYY" | "YY" | "MM" | "DD" | "hh" | "mm" | "ss" | "T" | "Z" | "+00:00" | "-" | "_" | ":" | "/";

// Longest first, so YYYY is never read as YY YY.
const TOKENS: readonly Token[] = ["+00:00", "YYYY", "YY", "MM", "DD", "hh", "mm", "ss", "T", "Z", "-", "_", ":", "/"];
const DELIMITERS = new Set<Token>(["-", "_", ":", "/"]);
const REQUIRED: ReadonlyArray<readonly Token[]> = [["YYYY", "YY"], ["MM"], ["DD"], ["hh"], ["mm"], ["ss"]];

export interface DatetimeFormat {
  tokens: readonly Token[];
  /** What stands between the date time and the unique part. */
  separator: string;
}

const DEFAULT_FORMAT: DatetimeFormat = { tokens: ["YYYY", "-", "MM", "-", "DD", "T", "hh", ":", "mm", ":", "ss", "+00:00"], separator: "_" };
const parsed = new Map<string, DatetimeFormat>();

/** The format's tokens, or why it is not a valid format. */
export function parseDatetimeFormat(format: string): DatetimeFormat | string {
  const hit = parsed.get(format);
  if (hit) return hit;
  const tokens: Token[] = [];
  for (let i = 0; i < format.length; ) {
    const t = TOKENS.find((tok) => format.startsWith(tok, i));
    if (!t) return `Unexpected "${format.slice(i, i + 8)}" at position ${i}: use YYYY or YY, MM, DD, hh, mm, ss, T, Z or +00:00, and the delimiters - _ : /.`;
    tokens.push(t);
    i += t.length;
  }
  for (const t of tokens) {
    if (DELIMITERS.has(t)) continue;
    const uses = tokens.filter((u) => u === t || (t === "Z" && u === "+00:00") || (t === "+00:00" && u === "Z") || (t === "YY" && u === "YYYY") || (t === "YYYY" && u === "YY")).length;
    if (uses > 1) return `The matcher ${t} may be used only once.`;
  }
  for (const options of REQUIRED) {
    if (!options.some((t) => tokens.includes(t))) return `The matcher ${options.join(" or ")} is required.`;
  }
  const last = tokens[tokens.length - 1];
  const out = DELIMITERS.has(last) ? { tokens: tokens.slice(0, -1), separator: last } : { tokens, separator: "_" };
  if (parsed.size < 1000) parsed.set(format, out);
  return out;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

export function formatDatetime(format: DatetimeFormat, ms: number): string {
  const d = new Date(ms);
  let out = "";
  for (const t of format.tokens) {
    switch (t) {
      case "YYYY": out += pad(d.getUTCFullYear(), 4); break;
      case "YY": out += pad(d.getUTCFullYear() % 100); break;
      case "MM": out += pad(d.getUTCMonth() + 1); break;
      case "DD": out += pad(d.getUTCDate()); break;
      case "hh": out += pad(d.getUTCHours()); break;
      case "mm": out += pad(d.getUTCMinutes()); break;
      case "ss": out += pad(d.getUTCSeconds()); break;
      default: out += t;
    }
  }
  return out;
}

/** The name of an object begun at `ms`, with `unique` as its random part. */
export function objectName(c: { filenamePrefix?: string; filenameSuffix?: string; filenameDatetimeFormat?: string }, ms: number, unique: string): string {
  const f = c.filenameDatetimeFormat ? parseDatetimeFormat(c.filenameDatetimeFormat) : DEFAULT_FORMAT;
  const format = typeof f === "string" ? DEFAULT_FORMAT : f;
  return `${c.filenamePrefix ?? ""}${formatDatetime(format, ms)}${format.separator}${unique}${c.filenameSuffix ?? ""}`;
}

/**
 * The one logger. Level and format come from the config; output is one line per event, info and
 * debug on stdout, warnings and errors on stderr. `text` (the default) is what a person reads;
 * `json` is one object per line as Cloud Logging's structured logging reads it (severity,
 * message, time in RFC 3339), with the event's context as fields of their own.
 */
type Level = "debug" | "info" | "warn" | "error" | "silent";
type Format = "text" | "json";
/** Fields that say what an event is about (a port, a file, a count): our values, never a client's keys. */
type Context = Record<string, string | number | boolean>;

const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };
/** Cloud Logging's LogSeverity names. */
const SEVERITY = { debug: "DEBUG", info: "INFO", warn: "WARNING", error: "ERROR" } as const;
let threshold = ORDER.info;
let format: Format = "text";

export function setLogLevel(level: Level): void {
  threshold = ORDER[level];
}

export function setLogFormat(f: Format): void {
  format = f;
}

const isContext = (x: unknown): x is Context =>
  typeof x === "object" && x !== null && Object.getPrototypeOf(x) === Object.prototype && Object.values(x).every((v) => ["string", "number", "boolean"].includes(typeof v));

/** The JSON line: the event's fields, then what came with it (an error's stack as stack_trace, which Error Reporting reads). */
function jsonLine(level: Exclude<Level, "silent">, message: string, extra: unknown[]): string {
  const entry: Record<string, unknown> = { severity: SEVERITY[level], message, time: new Date().toISOString() };
  const details: string[] = [];
  for (const x of extra) {
    if (x instanceof Error) {
      entry.error = x.message;
      if (x.stack) entry.stack_trace = x.stack;
    } else if (isContext(x)) {
      for (const [k, v] of Object.entries(x)) if (!(k in entry)) entry[k] = v;
    } else details.push(typeof x === "string" ? x : Bun.inspect(x));
  }
  if (details.length) entry.detail = details.join(" ");
  return JSON.stringify(entry);
}

function emit(level: Exclude<Level, "silent">, message: string, extra: unknown[]): void {
  if (ORDER[level] < threshold) return;
  const out = level === "error" || level === "warn" ? console.error : console.log;
  if (format === "json") return out(jsonLine(level, message, extra));
  // The text line's message already says what the context fields hold.
  out(`[pubsub-emulator] ${level.toUpperCase()} ${message}`, ...extra.filter((x) => !isContext(x)));
}

export const log = {
  debug: (msg: string, ...extra: unknown[]) => emit("debug", msg, extra),
  info: (msg: string, ...extra: unknown[]) => emit("info", msg, extra),
  warn: (msg: string, ...extra: unknown[]) => emit("warn", msg, extra),
  error: (msg: string, ...extra: unknown[]) => emit("error", msg, extra),
  /**
   * The started line, at every level: its text is what Testcontainers and scripts wait for, as
   * the gcloud emulator prints it, so in JSON it is the message whole.
   */
  ready(text: string, context: Context): void {
    console.log(format === "json" ? jsonLine("info", text, [context]) : text);
  },
};
export type { Format as LogFormat, Level };

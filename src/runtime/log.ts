/** The one logger. Level comes from the config; output is one line per event on stderr/stdout. */
type Level = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };
let threshold = ORDER.info;

export function setLogLevel(level: Level): void {
  threshold = ORDER[level];
}

function emit(level: Exclude<Level, "silent">, msg: string, extra: unknown[]): void {
  if (ORDER[level] < threshold) return;
  const line = `[pubsub-emulator] ${level.toUpperCase()} ${msg}`;
  if (level === "error" || level === "warn") console.error(line, ...extra);
  else console.log(line, ...extra);
}

export const log = {
  debug: (msg: string, ...extra: unknown[]) => emit("debug", msg, extra),
  info: (msg: string, ...extra: unknown[]) => emit("info", msg, extra),
  warn: (msg: string, ...extra: unknown[]) => emit("warn", msg, extra),
  error: (msg: string, ...extra: unknown[]) => emit("error", msg, extra),
};
export type { Level };

/**
 * Errors no rule caught reach a transport's status mapper as INTERNAL. Each is a bug: it is
 * logged and counted here (shown in /metrics), and the fuzz suite fails when the count moves.
 */
import { log } from "./log.ts";

let count = 0;

export function reportInternal(err: unknown): void {
  count++;
  log.error("internal error", err);
}

export const internalErrorCount = () => count;

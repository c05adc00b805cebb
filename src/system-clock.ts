/** The wall clock and real timers, for the running server (the core never reads them itself). */
import type { Clock } from "./core/clock.ts";

export const systemClock: Clock = {
  now: () => Date.now(),
  schedule: (atMs, fn) => {
    const t = setTimeout(fn, Math.max(0, atMs - Date.now()));
    (t as { unref?: () => void }).unref?.();
    return t;
  },
  cancel: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

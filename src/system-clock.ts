/** The wall clock and real timers, for the running server (the core never reads them itself). */
import type { Clock } from "./core/clock.ts";

/** setTimeout fires at once past 2^31-1 ms (~24.8 days); retention and expiry go to 31 days. */
const MAX_DELAY = 2 ** 31 - 1;

interface Handle {
  timer: ReturnType<typeof setTimeout>;
}

function arm(h: Handle, atMs: number, fn: () => void): void {
  const delay = Math.max(0, atMs - Date.now());
  h.timer = delay > MAX_DELAY ? setTimeout(() => arm(h, atMs, fn), MAX_DELAY) : setTimeout(fn, delay);
  (h.timer as { unref?: () => void }).unref?.();
}

export const systemClock: Clock = {
  now: () => Date.now(),
  schedule: (atMs, fn) => {
    const h = {} as Handle;
    arm(h, atMs, fn);
    return h;
  },
  cancel: (handle) => clearTimeout((handle as Handle).timer),
};

/**
 * Real monotonic time as a Clock, for what moves in real time whatever the emulated clock does
 * (memory: how long a held message may keep its request alive). Its timers never keep the
 * process alive.
 */
import type { Clock } from "../core/clock.ts";

export const realClock: Clock = {
  now: () => performance.now(),
  schedule(atMs, fn) {
    const t = setTimeout(fn, Math.max(0, atMs - performance.now()));
    t.unref?.();
    return t;
  },
  cancel(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

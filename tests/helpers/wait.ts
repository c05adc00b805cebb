/** Bounded waits on the test side (the emulator itself never polls). */

/**
 * Resolves when `cond` holds (it may be async: a read over the wire), checking every `every` ms;
 * rejects after `ms` with `what` (a function is called then, so it can say how far it got).
 */
export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  ms = 5000,
  what: string | (() => string) = "condition",
  every = 5,
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${typeof what === "function" ? what() : what}`);
    await Bun.sleep(every);
  }
}

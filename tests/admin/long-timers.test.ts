/** The server's clock: timers beyond setTimeout's 2^31-1 ms limit wait instead of firing at once. */
import { expect, test } from "bun:test";
import { SwitchableClock } from "../../src/runtime/switchable-clock.ts";

const systemClock = new SwitchableClock("system");

test("a timer 31 days out does not fire now; a near one does; cancel works on both", async () => {
  let far = false;
  let near = false;
  const h = systemClock.schedule(Date.now() + 31 * 24 * 3600 * 1000, () => (far = true));
  systemClock.schedule(Date.now() + 5, () => (near = true));
  const cancelled = systemClock.schedule(Date.now() + 5, () => (near = false));
  systemClock.cancel(cancelled);
  await new Promise((r) => setTimeout(r, 50));
  expect(near).toBe(true);
  expect(far).toBe(false);
  systemClock.cancel(h);
});

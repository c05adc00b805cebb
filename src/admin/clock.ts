/** The test clock over HTTP: read it, switch manual/system, advance by a duration, set an instant. */
import type { SwitchableClock } from "../runtime/switchable-clock.ts";
import { durationMs, instantMs } from "./params.ts";
import { HttpError, type Router } from "./router.ts";

/** One advance moves at most ten years: enough for any retention or expiration window. */
const MAX_ADVANCE_MS = 10 * 366 * 86_400_000;

export function clockState(clock: SwitchableClock) {
  const now = clock.now();
  return { mode: clock.mode, time: new Date(now).toISOString(), timeMs: now, pendingTimers: clock.pendingTimers };
}

export function setClockMode(clock: SwitchableClock, mode: unknown) {
  if (mode !== "manual" && mode !== "system") throw new HttpError(400, 'mode must be "manual" or "system".');
  clock.setMode(mode);
  return clockState(clock);
}

/** `duration`: "10s", "250ms", "2m" … or milliseconds. */
export function advanceClock(clock: SwitchableClock, duration: unknown) {
  const ms = durationMs({ duration }, "duration", MAX_ADVANCE_MS);
  if (ms === undefined) throw new HttpError(400, 'duration is required, e.g. {"duration": "10s"}.');
  const fired = clock.advance(ms);
  return { ...clockState(clock), firedTimers: fired };
}

/** `time`: RFC 3339 or epoch milliseconds, not before the clock's current time. */
export function setClockTime(clock: SwitchableClock, time: unknown) {
  const at = instantMs({ time }, "time");
  if (at === undefined) throw new HttpError(400, 'time is required, e.g. {"time": "2030-01-01T00:00:00Z"}.');
  const now = clock.now();
  if (at < now) throw new HttpError(400, `The clock only moves forward: time is before the current ${new Date(now).toISOString()}.`);
  if (at - now > MAX_ADVANCE_MS) throw new HttpError(400, "time is more than ten years ahead of the current time.");
  const fired = clock.set(at);
  return { ...clockState(clock), firedTimers: fired };
}

export function clockRoutes(router: Router, clock: SwitchableClock): void {
  router.add("GET", "/emulator/v1/clock", () => clockState(clock));
  router.add("POST", "/emulator/v1/clock/mode", async (ctx) => setClockMode(clock, (await ctx.body()).mode));
  router.add("POST", "/emulator/v1/clock/advance", async (ctx) => advanceClock(clock, (await ctx.body()).duration));
  router.add("POST", "/emulator/v1/clock/set", async (ctx) => setClockTime(clock, (await ctx.body()).time));
}

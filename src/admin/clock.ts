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

export function clockRoutes(router: Router, clock: SwitchableClock): void {
  router.add("GET", "/emulator/v1/clock", () => clockState(clock));
  router.add("POST", "/emulator/v1/clock/mode", async (ctx) => {
    const mode = (await ctx.body()).mode;
    if (mode !== "manual" && mode !== "system") throw new HttpError(400, 'mode must be "manual" or "system".');
    clock.setMode(mode);
    return clockState(clock);
  });
  router.add("POST", "/emulator/v1/clock/advance", async (ctx) => {
    const ms = durationMs(await ctx.body(), "duration", MAX_ADVANCE_MS);
    if (ms === undefined) throw new HttpError(400, 'duration is required, e.g. {"duration": "10s"}.');
    const fired = clock.advance(ms);
    return { ...clockState(clock), firedTimers: fired };
  });
  router.add("POST", "/emulator/v1/clock/set", async (ctx) => {
    const at = instantMs(await ctx.body(), "time");
    if (at === undefined) throw new HttpError(400, 'time is required, e.g. {"time": "2030-01-01T00:00:00Z"}.');
    const now = clock.now();
    if (at < now) throw new HttpError(400, `The clock only moves forward: time is before the current ${new Date(now).toISOString()}.`);
    if (at - now > MAX_ADVANCE_MS) throw new HttpError(400, "time is more than ten years ahead of the current time.");
    const fired = clock.set(at);
    return { ...clockState(clock), firedTimers: fired };
  });
}

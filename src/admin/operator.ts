/**
 * What the operator API works on, and its reset verb. The HTTP routes (http.ts, clock.ts,
 * inspect.ts) and the in-process test API (src/api) call the same functions, so both answer alike.
 */
import type { SwitchableClock } from "../runtime/switchable-clock.ts";
import type { FaultRegistry } from "../rpc/middleware/faults.ts";
import type { InspectDeps } from "./inspect.ts";

export interface OperatorDeps extends InspectDeps {
  clock: SwitchableClock;
  faults: FaultRegistry;
}

/** Drops every resource (or one project's); a full reset clears faults too, so a suite starts from a clean emulator. */
export function resetEmulator(deps: Pick<OperatorDeps, "broker" | "faults">, project?: string) {
  const dropped = deps.broker.reset(project);
  const faults = project === undefined ? deps.faults.clear() : 0;
  return { reset: true, ...dropped, faults };
}

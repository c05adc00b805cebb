/**
 * grpc.health.v1.Health as grpc's health-checking protocol describes it (state in
 * health-state.ts): Check of an unknown service is NOT_FOUND, Watch of one answers
 * SERVICE_UNKNOWN and waits. Watch sends the status at once and again when it changes; a drain
 * ends every Watch after its NOT_SERVING, so the shutdown does not wait for them.
 */
import { echo } from "../../core/bounded.ts";
import { Code } from "../status.ts";
import { codec } from "./codec.ts";
import { oneRequest, type Outbound, type StdCall, type StdHandler } from "./contract.ts";
import { HEALTH_SERVICES, type HealthState, type ServingStatus } from "./health-state.ts";

export const HEALTH_PACKAGE = "grpc.health.v1";
const OK = { code: Code.OK, details: "" };
const SHUTTING_DOWN = { code: Code.UNAVAILABLE, details: "The emulator is shutting down." };

const serviceOf = (req: unknown) => String((req as { service?: string }).service ?? "");

function check(state: HealthState, out: Outbound, req: unknown): void {
  const service = serviceOf(req);
  const status = state.status(service);
  if (status === "SERVICE_UNKNOWN") return out.end({ code: Code.NOT_FOUND, details: `unknown service ${echo(service)}` });
  out.send({ status });
  out.end(OK);
}

function watch(state: HealthState, out: Outbound, req: unknown): StdCall | void {
  const status = state.status(serviceOf(req));
  out.send({ status });
  if (status === "SERVICE_UNKNOWN") return;
  if (state.isDraining) return out.end(SHUTTING_DOWN);
  const stop = state.watch((next) => {
    stop();
    out.send({ status: next });
    out.end(SHUTTING_DOWN);
  });
  return { message() {}, halfClose() {}, cancel: stop };
}

function list(state: HealthState, out: Outbound): void {
  const statuses = Object.create(null) as Record<string, { status: ServingStatus }>;
  for (const s of HEALTH_SERVICES) statuses[s] = { status: state.status(s) };
  out.send({ statuses });
  out.end(OK);
}

const METHODS = {
  Check: { request: "HealthCheckRequest", response: "HealthCheckResponse", handle: check },
  Watch: { request: "HealthCheckRequest", response: "HealthCheckResponse", handle: watch },
  List: { request: "HealthListRequest", response: "HealthListResponse", handle: list },
};

export type HealthMethod = keyof typeof METHODS;

export function healthHandler(name: HealthMethod, path: string, state: HealthState): StdHandler {
  const m = METHODS[name];
  return {
    ...codec(`${HEALTH_PACKAGE}.${m.request}`, `${HEALTH_PACKAGE}.${m.response}`),
    open: (out) => oneRequest(path, out, (req) => m.handle(state, out, req)),
  };
}

/**
 * grpc.health.v1.Health as grpc's health-checking protocol describes it: the server ("") and each
 * Pub/Sub service are SERVING while the emulator runs and NOT_SERVING once it drains (SIGTERM);
 * Check of an unknown service is NOT_FOUND, Watch of one answers SERVICE_UNKNOWN and waits. Watch
 * sends the status at once and again when it changes; a drain ends every Watch after its
 * NOT_SERVING, so the shutdown does not wait for them.
 */
import { echo } from "../../core/bounded.ts";
import { SERVICES } from "../../rpc/services.ts";
import { Code } from "../status.ts";
import { codec, oneRequest, type Outbound, type StdMethod } from "./method.ts";

const PKG = "grpc.health.v1";
const KNOWN: ReadonlySet<string> = new Set(["", ...Object.values(SERVICES)]);

type Status = "SERVING" | "NOT_SERVING" | "SERVICE_UNKNOWN";

/** The serving state one emulator's servers share, and the Watch calls waiting on it. */
export class HealthState {
  private draining = false;
  private readonly watchers = new Set<(s: Status) => void>();

  status(service: string): Status {
    if (!KNOWN.has(service)) return "SERVICE_UNKNOWN";
    return this.draining ? "NOT_SERVING" : "SERVING";
  }

  /** Everything is NOT_SERVING from now on; each Watch hears it. */
  drain(): void {
    if (this.draining) return;
    this.draining = true;
    for (const w of [...this.watchers]) w("NOT_SERVING");
  }

  get isDraining(): boolean {
    return this.draining;
  }

  watch(fn: (s: Status) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }
}

const OK = { code: Code.OK, details: "" };
const SHUTTING_DOWN = { code: Code.UNAVAILABLE, details: "The emulator is shutting down." };

function check(state: HealthState, out: Outbound, service: string): void {
  const status = state.status(service);
  if (status === "SERVICE_UNKNOWN") return out.end({ code: Code.NOT_FOUND, details: `unknown service ${echo(service)}` });
  out.send({ status });
  out.end(OK);
}

function watch(state: HealthState, out: Outbound, service: string) {
  const known = state.status(service) !== "SERVICE_UNKNOWN";
  out.send({ status: state.status(service) });
  if (!known) return;
  if (state.isDraining) return out.end(SHUTTING_DOWN);
  const stop = state.watch((status) => {
    stop();
    out.send({ status });
    out.end(SHUTTING_DOWN);
  });
  return { message() {}, halfClose() {}, cancel: stop };
}

export function healthMethods(state: HealthState): StdMethod[] {
  const request = `${PKG}.HealthCheckRequest`;
  const response = `${PKG}.HealthCheckResponse`;
  const service = (req: unknown) => String((req as { service?: string }).service ?? "");
  const method = (name: string, responseStream: boolean, codecOf: Pick<StdMethod, "decode" | "encode">, handle: (out: Outbound, req: unknown) => ReturnType<typeof watch>): StdMethod => {
    const path = `/${PKG}.Health/${name}`;
    return { path, requestStream: false, responseStream, ...codecOf, open: (out) => oneRequest(path, out, (req) => handle(out, req)) };
  };
  return [
    method("Check", false, codec(request, response), (out, req) => check(state, out, service(req))),
    method("Watch", true, codec(request, response), (out, req) => watch(state, out, service(req))),
    method("List", false, codec(`${PKG}.HealthListRequest`, `${PKG}.HealthListResponse`), (out) => {
      const statuses = Object.create(null) as Record<string, { status: Status }>;
      for (const s of KNOWN) statuses[s] = { status: state.status(s) };
      out.send({ statuses });
      out.end(OK);
    }),
  ];
}

/** The fault-injection API: list, add, remove and clear faults; end open streams. */
import { TRANSIENT_FAILURE } from "../core/delivery/exactly-once.ts";
import { PubSubError, type ErrorCode } from "../core/errors.ts";
import { SERVICES } from "../rpc/services.ts";
import type { RpcTable } from "../rpc/table.ts";
import { FaultRegistry, type Fault, type FaultAction } from "../rpc/middleware/faults.ts";
import { durationMs, optionalNumber, optionalString } from "./params.ts";
import { HttpError, type Router } from "./router.ts";

const CODES: readonly ErrorCode[] = [
  "UNAVAILABLE", "DEADLINE_EXCEEDED", "ABORTED", "INTERNAL", "UNKNOWN", "RESOURCE_EXHAUSTED", "CANCELLED",
  "INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS", "FAILED_PRECONDITION", "PERMISSION_DENIED", "UNAUTHENTICATED", "UNIMPLEMENTED",
];
const MAX_DELAY_MS = 10 * 60_000;

export function faultView(f: Fault) {
  const a = f.action;
  const action =
    a.kind === "error"
      ? { error: { code: a.code, message: a.message, ...(a.retryDelayMs !== undefined && { retryDelay: `${a.retryDelayMs / 1000}s` }) } }
      : a.kind === "delay"
        ? { delay: `${a.delayMs / 1000}s` }
        : a.kind === "dropAcks"
          ? { dropAcks: a.fraction }
          : { transientAckFailure: a.reason };
  return { id: f.id, method: f.method, resource: f.resource, ...action, remaining: f.remaining, hits: f.hits };
}

export function faultRoutes(router: Router, faults: FaultRegistry, table: RpcTable): void {
  const methods = new Set([...table.unary.keys(), "Subscriber.StreamingPull"]);
  router.add("GET", "/emulator/v1/faults", () => ({ faults: faults.list().map(faultView) }));
  router.add("POST", "/emulator/v1/faults", async (ctx) => faultView(addFault(faults, methods, await ctx.body())));
  router.add("DELETE", "/emulator/v1/faults", () => ({ cleared: faults.clear() }));
  router.add("DELETE", "/emulator/v1/faults/:id", (ctx) => {
    if (!faults.remove(ctx.params.id)) throw new HttpError(404, `No fault ${ctx.params.id.slice(0, 40)}.`);
    return { cleared: 1 };
  });
  router.add("POST", "/emulator/v1/faults/end-streams", async (ctx) => {
    const body = await ctx.body();
    const resource = optionalString(body, "resource", 300) ?? "";
    const { code, message } = errorOf(body.error ?? { code: "UNAVAILABLE" }, "The emulator ended the stream (fault injection).");
    return { ended: faults.endStreams(resource, new PubSubError(code, message)) };
  });
}

function addFault(faults: FaultRegistry, methods: ReadonlySet<string>, body: Record<string, unknown>): Fault {
  const method = optionalString(body, "method", 100) ?? "*";
  const service = method.split(".")[0];
  if (method !== "*" && !methods.has(method) && !(method === `${service}.*` && Object.hasOwn(SERVICES, service))) {
    throw new HttpError(400, `method must be "*", "Service.*" or a method such as "Publisher.Publish" (got "${method.slice(0, 100)}").`);
  }
  const resource = optionalString(body, "resource", 300) ?? "";
  if (resource && !/^projects\/[^/]+(\/(topics|subscriptions|snapshots)\/[^/]+)?$/.test(resource)) {
    throw new HttpError(400, "resource must be projects/{project} or a topic, subscription or snapshot name.");
  }
  const kinds = (["error", "delay", "dropAcks", "transientAckFailure"] as const).filter((k) => body[k] !== undefined);
  if (kinds.length !== 1) throw new HttpError(400, "A fault sets exactly one of error, delay, dropAcks and transientAckFailure.");
  let action: FaultAction;
  if (kinds[0] === "error") {
    const { code, message, retryDelayMs } = errorOf(body.error, "Injected fault.");
    action = { kind: "error", code, message, retryDelayMs };
  } else if (kinds[0] === "delay") {
    action = { kind: "delay", delayMs: durationMs(body, "delay", MAX_DELAY_MS)! };
  } else if (kinds[0] === "dropAcks") {
    action = { kind: "dropAcks", fraction: optionalNumber(body, "dropAcks", 0, 1, false)! };
  } else {
    action = { kind: "transientAcks", reason: transientReason(body.transientAckFailure) };
  }
  // Error and transient-ack faults are for the next call unless told; delays and drops last until cleared.
  const count = optionalNumber(body, "count", 1, 1_000_000) ?? (action.kind === "error" || action.kind === "transientAcks" ? 1 : null);
  return faults.add(method, resource, action, count);
}

/** `true` for the reason the real service names, or a TRANSIENT_* reason of the caller's. */
function transientReason(v: unknown): string {
  if (v === true) return TRANSIENT_FAILURE;
  if (typeof v === "string" && /^TRANSIENT_[A-Z0-9_]{1,64}$/.test(v)) return v;
  throw new HttpError(400, 'transientAckFailure must be true or a reason such as "TRANSIENT_FAILURE_UNORDERED_ACK_ID".');
}

function errorOf(v: unknown, fallback: string): { code: ErrorCode; message: string; retryDelayMs?: number } {
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new HttpError(400, 'error must be an object such as {"code": "UNAVAILABLE"}.');
  const e = v as Record<string, unknown>;
  const code = e.code as ErrorCode;
  if (!CODES.includes(code)) throw new HttpError(400, `error.code must be one of ${CODES.join(", ")}.`);
  const message = optionalString(e, "message", 500) ?? fallback;
  return { code, message, retryDelayMs: durationMs(e, "retryDelay", MAX_DELAY_MS) };
}

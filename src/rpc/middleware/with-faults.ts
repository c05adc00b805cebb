/**
 * The injected faults as a middleware of the table (rpc/table.ts lists it), so every transport
 * registered over it — gRPC, REST — meets the same faults. With no fault active a call costs one
 * boolean check.
 */
import type { StreamRequest, StreamSink } from "../../core/delivery/stream-session.ts";
import type { AckRequest, CallContext, StreamHandle, StreamOpener, UnaryRpc } from "../contract.ts";
import { ackIdFailureEntries, ackIdFailures, idsWithinBudget } from "../../core/delivery/exactly-once.ts";
import { FaultRegistry, faultError, type OpenStream } from "./faults.ts";
import type { RpcMiddleware } from "./compose.ts";

const ACK = "Subscriber.Acknowledge";
const MODACK = "Subscriber.ModifyAckDeadline";
const STREAM = "Subscriber.StreamingPull";

export function withFaults(faults: FaultRegistry): RpcMiddleware {
  return {
    unary: (method, fn) => (req, ctx) => (faults.empty ? fn(req, ctx) : faulty(faults, method, fn, req, ctx)),
    openStream: (next) => (first, sink) => openStream(next, faults, first, sink),
  };
}

/** The ack ids of an Acknowledge or ModifyAckDeadline (the table hands each RPC its own method's request). */
function ackRequest(method: string, req: unknown): (AckRequest & { ackIds: string[] }) | undefined {
  if (method !== ACK && method !== MODACK) return undefined;
  const ack = req as AckRequest;
  return Array.isArray(ack.ackIds) ? { ...ack, ackIds: ack.ackIds } : undefined;
}

function faulty(faults: FaultRegistry, method: string, fn: UnaryRpc, req: unknown, ctx: CallContext): unknown {
  const resources = resourcesOf(req);
  const error = faults.take("error", method, resources);
  if (error) throw faultError(error.action);
  let ack = ackRequest(method, req);
  if (ack && method === ACK) req = ack = { ...ack, ackIds: [...faults.filterAcks(method, ack.subscription, ack.ackIds)] };
  if (ack?.ackIds.length) {
    const transient = faults.take("transientAcks", method, resources);
    if (transient) return transientAcks(fn, ack, ctx, transient.action.reason);
  }
  const delay = faults.take("delay", method, resources);
  if (!delay) return fn(req, ctx);
  // The call takes effect now and its answer comes late, as when the network is slow: a client
  // that gives up first and retries sees the effect twice (a duplicate publish, say).
  const result = Promise.resolve().then(() => fn(req, ctx));
  return result.then((r) => new Promise((resolve) => setTimeout(() => resolve(r), delay.action.delayMs)));
}

/**
 * The ack ids that fit in the status's metadata fail with `reason` and are not applied (the client
 * retries them); the rest of the call is applied, and its own invalid ids are listed beside them.
 */
async function transientAcks(fn: UnaryRpc, req: AckRequest, ctx: CallContext, reason: string): Promise<never> {
  const ackIds = req.ackIds ?? [];
  const failing = idsWithinBudget(ackIds, reason);
  const entries: (readonly [string, string])[] = failing.map((id) => [id, reason] as const);
  const rest = ackIds.slice(failing.length);
  if (rest.length) {
    try {
      await fn({ ...req, ackIds: rest }, ctx);
    } catch (e) {
      const permanent = ackIdFailureEntries(e);
      if (!permanent) throw e;
      entries.push(...permanent);
    }
  }
  throw ackIdFailures(entries);
}

function openStream(next: StreamOpener, faults: FaultRegistry, first: StreamRequest, sink: StreamSink): StreamHandle {
  const subscription = first.subscription ?? "";
  const error = faults.empty ? null : faults.take("error", STREAM, [subscription]);
  if (error) throw faultError(error.action);
  const session = next(first, sink);
  const open: OpenStream = {
    subscription,
    end: (e) => {
      handle.close();
      sink.fail(e);
    },
  };
  const dropFaultyAcks = (req: StreamRequest): StreamRequest =>
    req.ackIds?.length && !faults.empty ? { ...req, ackIds: [...faults.filterAcks(STREAM, subscription, req.ackIds)] } : req;
  const handle: StreamHandle = {
    handle: (req) => session.handle(dropFaultyAcks(req)),
    late: (req) => session.late(dropFaultyAcks(req)),
    drained: () => session.drained(),
    close() {
      faults.streams.delete(open);
      session.close();
    },
  };
  faults.streams.add(open);
  return handle;
}

/** The resource names a request carries: topic, subscription, name, project, snapshot (strings or resources). */
function resourcesOf(req: unknown): string[] {
  const out: string[] = [];
  if (!req || typeof req !== "object") return out;
  for (const key of ["subscription", "topic", "name", "project", "snapshot", "resource"] as const) {
    const v: unknown = (req as Partial<Record<typeof key, unknown>>)[key];
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object" && "name" in v && typeof v.name === "string") out.push(v.name);
  }
  return out;
}

/**
 * The transport-neutral RPC table: one plain function per RPC, keyed "Service.Method" (short
 * service names: Publisher, Subscriber, SchemaService, IAMPolicy). Requests and results are the
 * proto messages as proto-loader shapes them (camelCase fields, Duration/Timestamp objects), except
 * the hot RPCs, whose hand-written codecs hand over core inputs and take core delivery batches.
 * gRPC and REST register this table; push, fault injection and the dashboard wrap it.
 */
import type { Broker } from "../core/broker.ts";
import { StreamSession, type StreamRequest, type StreamSink } from "../core/stream-session.ts";
import { iamRpcs } from "./iam.ts";
import { messageTransformRpcs } from "./message-transforms.ts";
import { publisherRpcs } from "./publisher.ts";
import { schemaRpcs } from "./schema.ts";
import { subscriberRpcs } from "./subscriber.ts";
import { unimplementedRpcs } from "./unimplemented.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProtoObject = Record<string, any>;

/** What a handler may ask of the call that carries it. */
export interface CallContext {
  /** Runs `fn` if the caller goes away before the answer (a waiting Pull stops waiting). */
  onCancel(fn: () => void): void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UnaryRpc = (req: any, ctx: CallContext) => unknown | Promise<unknown>;

/** What a transport holds for one open StreamingPull stream. */
export type StreamHandle = Pick<StreamSession, "handle" | "late" | "drained" | "close">;

export interface RpcTable {
  /** Every unary RPC of every service, by "Service.Method". */
  readonly unary: ReadonlyMap<string, UnaryRpc>;
  /** Subscriber.StreamingPull: validates the first request and starts a session. */
  openStream(first: StreamRequest, sink: StreamSink): StreamHandle;
}

export const NO_CONTEXT: CallContext = { onCancel: () => {} };

/** The RPCs that have a handler, by "Service.Method". */
export function implementedRpcs(broker: Broker): Map<string, UnaryRpc> {
  const unary = new Map<string, UnaryRpc>();
  const add = (service: string, rpcs: Record<string, UnaryRpc>) => {
    for (const [method, fn] of Object.entries(rpcs)) unary.set(`${service}.${method}`, fn);
  };
  add("Publisher", publisherRpcs(broker));
  add("Subscriber", subscriberRpcs(broker));
  add("SchemaService", schemaRpcs(broker));
  add("IAMPolicy", iamRpcs(broker));
  add("Projects", messageTransformRpcs(broker));
  return unary;
}

/** The RPCs that may carry message_transforms (the request itself, or its topic / subscription). */
const TRANSFORM_CARRIERS = ["Publisher.CreateTopic", "Publisher.UpdateTopic", "Subscriber.CreateSubscription", "Subscriber.UpdateSubscription"];

const carriesTransforms = (req: ProtoObject | null | undefined): boolean =>
  !!(req?.messageTransforms?.length || req?.topic?.messageTransforms?.length || req?.subscription?.messageTransforms?.length);

/**
 * The transform engine is loaded on the first request that needs it, before the broker (which is
 * synchronous) sees that request; until then no RPC pays anything for it.
 */
function loadEngineFirst(broker: Broker, unary: Map<string, UnaryRpc>): void {
  const wrap = (name: string, needs: (req: ProtoObject) => boolean) => {
    const fn = unary.get(name);
    if (!fn) return;
    unary.set(name, (req, ctx) => {
      if (broker.transformEngine || !needs(req)) return fn(req, ctx);
      return broker.ensureTransformEngine().then(() => fn(req, ctx));
    });
  };
  for (const name of TRANSFORM_CARRIERS) wrap(name, carriesTransforms);
  for (const name of ["Projects.ValidateMessageTransform", "Projects.TestMessageTransforms"]) wrap(name, () => true);
}

export function createRpcTable(broker: Broker): RpcTable {
  const unary = implementedRpcs(broker);
  loadEngineFirst(broker, unary);
  // A method a refreshed proto adds answers UNIMPLEMENTED on every transport until it has a handler.
  for (const [name, fn] of unimplementedRpcs()) if (!unary.has(name)) unary.set(name, fn);
  return { unary, openStream: (first, sink) => new StreamSession(broker, first, sink) };
}

/**
 * The transport-neutral RPC table: one plain function per RPC, keyed "Service.Method" (short
 * service names: Publisher, Subscriber, SchemaService, IAMPolicy). Requests and results are the
 * proto messages as proto-loader shapes them (camelCase fields, Duration/Timestamp objects), except
 * the hot RPCs, whose hand-written codecs hand over core inputs and take core delivery batches.
 * gRPC and REST register this table; push, fault injection and the dashboard wrap it.
 */
import type { Broker } from "../core/broker.ts";
import { StreamSession, type StreamRequest, type StreamSink } from "../core/delivery/stream-session.ts";
import { iamRpcs } from "./iam.ts";
import { messageTransformRpcs } from "./message-transforms.ts";
import { publisherRpcs } from "./publisher.ts";
import { schemaRpcs } from "./schema.ts";
import { subscriberRpcs } from "./subscriber.ts";
import { unimplementedRpcs } from "./unimplemented.ts";

import type { ProtoObject, RpcTable, UnaryRpc } from "./contract.ts";
import { hasJavaScriptUdf } from "../core/stages/transforms.ts";

export { NO_CONTEXT, type CallContext, type ProtoObject, type RpcTable, type StreamHandle, type UnaryRpc } from "./contract.ts";

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

/** Only JavaScript UDFs need the engine; compression steps run without it. */
const carriesTransforms = (req: ProtoObject | null | undefined): boolean =>
  hasJavaScriptUdf(req?.messageTransforms) || hasJavaScriptUdf(req?.topic?.messageTransforms) || hasJavaScriptUdf(req?.subscription?.messageTransforms);

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
  return { unary, openStream: (first, sink) => new StreamSession(broker.subscriptions, first, sink) };
}

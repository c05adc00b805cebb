/**
 * The transport-neutral RPC table: one plain function per RPC, keyed "Service.Method" (short
 * service names: Publisher, Subscriber, SchemaService, IAMPolicy), typed by contract.ts. Requests
 * and results are the proto messages as proto-loader shapes them (camelCase fields,
 * Duration/Timestamp objects), except the hot RPCs, whose hand-written codecs hand over core
 * inputs and take core delivery batches. gRPC and REST register this table; the middlewares
 * listed here wrap it for both, and push and the dashboard call it.
 */
import type { Broker } from "../core/broker.ts";
import { StreamSession } from "../core/delivery/stream-session.ts";
import { iamRpcs } from "./iam.ts";
import { messageTransformRpcs } from "./message-transforms.ts";
import { publisherRpcs } from "./publisher.ts";
import { schemaRpcs } from "./schema.ts";
import { subscriberRpcs } from "./subscriber.ts";
import { unimplementedRpcs } from "./unimplemented.ts";
import type { RpcTable, UnaryRpc } from "./contract.ts";
import { compose } from "./middleware/compose.ts";
import type { FaultRegistry } from "./middleware/faults.ts";
import { loadsTransformEngine } from "./middleware/transform-engine.ts";
import { withFaults } from "./middleware/with-faults.ts";

export { NO_CONTEXT, type CallContext, type RpcTable, type StreamHandle, type UnaryRpc } from "./contract.ts";

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

export interface TableOptions {
  /** The operator API's injected faults (absent: none can be injected). */
  faults?: FaultRegistry;
}

export function createRpcTable(broker: Broker, o: TableOptions = {}): RpcTable {
  const unary = implementedRpcs(broker);
  // A method a refreshed proto adds answers UNIMPLEMENTED on every transport until it has a handler.
  for (const [name, fn] of unimplementedRpcs()) if (!unary.has(name)) unary.set(name, fn);
  const table: RpcTable = { unary, openStream: (first, sink) => new StreamSession(broker.subscriptions, first, sink) };
  // Every middleware, the first outermost: an injected fault answers before the engine loads.
  return compose(table, [o.faults && withFaults(o.faults), loadsTransformEngine(broker)]);
}

/**
 * The grpc-js server (`--grpc-server grpc-js`; the default is raw, h2/): every service of the
 * RPC table, with the codecs of methods.ts and the call shapes' handlers of call/handlers.ts
 * (through calls.ts). Loaded only when chosen, so the raw and lean servers' process never loads
 * grpc-js.
 */
import * as grpc from "@grpc/grpc-js";
import type { DeliveryBatch } from "../../core/delivery/delivery-batch.ts";
import type { StreamRequest } from "../../core/delivery/stream-session.ts";
import type { RpcTable } from "../../rpc/table.ts";
import type { ServiceName } from "../../rpc/services.ts";
import type { GrpcTransport } from "../transport.ts";
import type { ServiceDefinition } from "../definitions.ts";
import { installFramedSend } from "../framed.ts";
import { serveStreamingPull, serveUnary } from "../call/handlers.ts";
import { MAX_MESSAGE, servedDefinition, servedServices } from "../methods.ts";
import { HealthState, stdMethods } from "../std/index.ts";
import { duplexCall, unaryCall } from "./calls.ts";
import { addStdServices } from "./std.ts";

function handlers(service: ServiceName, definition: ServiceDefinition, table: RpcTable): grpc.UntypedServiceImplementation {
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [method, { path, requestStream }] of Object.entries(definition)) {
    // The one streaming method served is StreamingPull.
    if (requestStream) {
      const serve: grpc.handleBidiStreamingCall<StreamRequest, DeliveryBatch> = (call) => serveStreamingPull(duplexCall(path, call), table);
      impl[method] = serve as grpc.UntypedHandleCall;
      continue;
    }
    const fn = table.unary.get(`${service}.${method}`);
    if (fn) {
      const serve: grpc.handleUnaryCall<unknown, unknown> = (call, callback) => serveUnary(unaryCall(path, call, callback), fn);
      impl[method] = serve;
    }
  }
  return impl;
}

export function createGrpcServer(table: RpcTable, health = new HealthState()): grpc.Server {
  installFramedSend();
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  });
  for (const service of servedServices()) {
    const definition = servedDefinition(service);
    server.addService(definition, handlers(service, definition, table));
  }
  addStdServices(server, stdMethods(health));
  return server;
}

/** The grpc-js server as the listener's HTTP/2 side: connections injected, drained with GOAWAY. */
export function grpcJsTransport(table: RpcTable, health?: HealthState): GrpcTransport {
  const server = createGrpcServer(table, health);
  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  return {
    accept: (socket) => injector.injectConnection(socket),
    drain: (graceMs) => injector.drain(graceMs),
    close: () => server.forceShutdown(),
  };
}

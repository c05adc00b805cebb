/**
 * The grpc-js server (`--grpc-server grpc-js`; the default is raw, h2/): every service of the
 * RPC table, with the codecs of methods.ts. Loaded only when chosen, so the raw and lean servers' process
 * never loads grpc-js.
 */
import * as grpc from "@grpc/grpc-js";
import type { RpcTable } from "../rpc/table.ts";
import type { ServiceName } from "../rpc/services.ts";
import type { GrpcTransport } from "./transport.ts";
import { installFramedSend } from "./framed.ts";
import { unary } from "./handler.ts";
import { MAX_MESSAGE, servedDefinition, servedServices } from "./methods.ts";
import { streamingPull } from "./streaming-pull.ts";
import { HealthState, stdMethods } from "./std/index.ts";
import { addStdServices } from "./std/grpc-js.ts";

function handlers(service: ServiceName, definition: grpc.ServiceDefinition, table: RpcTable): grpc.UntypedServiceImplementation {
  const impl: grpc.UntypedServiceImplementation = {};
  for (const method of Object.keys(definition)) {
    if (service === "Subscriber" && method === "StreamingPull") impl[method] = streamingPull(table);
    else {
      const fn = table.unary.get(`${service}.${method}`);
      if (fn) impl[method] = unary(fn);
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

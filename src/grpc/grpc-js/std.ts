/**
 * The standard services on the grpc-js server (--grpc-server grpc-js): each method as grpc-js's
 * handler of its shape, passing bytes through (contract.ts decodes and encodes once loaded).
 */
import * as grpc from "@grpc/grpc-js";
import { serviceError } from "./calls.ts";
import { whenLoaded, type StdMethod, type Wire } from "../std/contract.ts";

const bytes = (b: Buffer) => b;

function unary(m: StdMethod): grpc.handleUnaryCall<Buffer, Buffer> {
  return (call, callback) => {
    let reply: Buffer | undefined;
    const h = whenLoaded(m, { send: (b) => void (reply = Buffer.from(b)), end: (s) => (s.code === 0 ? callback(null, reply) : callback(serviceError(s))) });
    call.on("cancelled", () => h.cancel());
    h.message(call.request);
    h.halfClose();
  };
}

function streaming(m: StdMethod): grpc.handleBidiStreamingCall<Buffer, Buffer> {
  return (call) => {
    let ended = false;
    const wire: Wire = {
      send: (b) => void (ended || call.write(Buffer.from(b))),
      end(s) {
        if (ended) return;
        ended = true;
        if (s.code === 0) call.end();
        else call.emit("error", serviceError(s));
      },
    };
    const h = whenLoaded(m, wire);
    call.on("cancelled", () => h.cancel());
    // A server-streaming call has its one request already read.
    const request = (call as unknown as { request?: Buffer }).request;
    if (!m.requestStream) return void (h.message(request!), h.halfClose());
    call.on("data", (b: Buffer) => h.message(b));
    call.on("end", () => h.halfClose());
  };
}

export function addStdServices(server: grpc.Server, methods: readonly StdMethod[]): void {
  const services = new Map<string, { definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>>; impl: grpc.UntypedServiceImplementation }>();
  for (const m of methods) {
    const [, service, name] = m.path.split("/") as [string, string, string];
    const entry = services.get(service) ?? { definition: {}, impl: {} };
    services.set(service, entry);
    const { path, requestStream, responseStream } = m;
    entry.definition[name] = { path, requestStream, responseStream, requestSerialize: bytes, requestDeserialize: bytes, responseSerialize: bytes, responseDeserialize: bytes };
    entry.impl[name] = (m.responseStream ? streaming(m) : unary(m)) as grpc.UntypedHandleCall;
  }
  for (const { definition, impl } of services.values()) server.addService(definition as grpc.ServiceDefinition, impl);
}

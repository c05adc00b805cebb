/** The standard services on the grpc-js server (--grpc-server grpc-js): each method as grpc-js's handler of its shape. */
import * as grpc from "@grpc/grpc-js";
import type { GrpcStatus } from "../status.ts";
import type { Outbound, StdMethod } from "./method.ts";

function serviceError(s: GrpcStatus): grpc.ServiceError {
  return Object.assign(new Error(s.details), { code: s.code, details: s.details, metadata: new grpc.Metadata() });
}

type AnyCall = grpc.ServerUnaryCall<unknown, unknown> & grpc.ServerWritableStream<unknown, unknown> & grpc.ServerDuplexStream<unknown, unknown>;

function handler(m: StdMethod): grpc.UntypedHandleCall {
  if (!m.responseStream) {
    return ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      let reply: unknown;
      const h = m.open({ send: (v) => void (reply = v), end: (s) => (s.code === 0 ? callback(null, reply) : callback(serviceError(s))) });
      call.on("cancelled", () => h.cancel());
      h.message(call.request);
      h.halfClose();
    }) as grpc.UntypedHandleCall;
  }
  return ((call: AnyCall) => {
    let ended = false;
    const out: Outbound = {
      send: (v) => void (ended || call.write(v)),
      end(s) {
        if (ended) return;
        ended = true;
        if (s.code === 0) call.end();
        else call.emit("error", serviceError(s));
      },
    };
    const h = m.open(out);
    call.on("cancelled", () => h.cancel());
    if (!m.requestStream) return h.message(call.request);
    call.on("data", (req: unknown) => h.message(req));
    call.on("end", () => h.halfClose());
  }) as grpc.UntypedHandleCall;
}

export function addStdServices(server: grpc.Server, methods: readonly StdMethod[]): void {
  const services = new Map<string, { definition: grpc.ServiceDefinition; impl: grpc.UntypedServiceImplementation }>();
  for (const m of methods) {
    const [, service, name] = m.path.split("/") as [string, string, string];
    const entry = services.get(service) ?? { definition: {} as grpc.ServiceDefinition, impl: {} };
    services.set(service, entry);
    const encode = (v: unknown) => Buffer.from(m.encode(v));
    (entry.definition as Record<string, grpc.MethodDefinition<unknown, unknown>>)[name] = {
      path: m.path,
      requestStream: m.requestStream,
      responseStream: m.responseStream,
      requestSerialize: encode,
      requestDeserialize: m.decode,
      responseSerialize: encode,
      responseDeserialize: m.decode,
    };
    entry.impl[name] = handler(m);
  }
  for (const { definition, impl } of services.values()) server.addService(definition, impl);
}

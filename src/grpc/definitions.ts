/**
 * The served services' method definitions (grpc-js's shape, plain data, which its server takes
 * as they are; no grpc-js type here, so our own servers' tables are ours), built from the descriptor's JSON without parsing it
 * into protobufjs at start: a method's protobufjs codec (every RPC without a hand-written one) is
 * made on its first call, from the part of the descriptor its types reach. What serving needs
 * before the ready line is the paths and stream flags; protobufjs and the 40 ms of proto-loader's
 * reflection data (used by no server) stay out of the start. The codecs are proto-loader's own:
 * toObject with the options of proto.ts on decode, fromObject + encode on encode.
 */
import type protobuf from "protobufjs";
import descriptor from "../../protos/descriptor.json" with { type: "json" };
import { SERVICES, serviceMethods, type ServiceName } from "../rpc/services.ts";
import { methodType, subsetFor } from "../proto/subset.ts";

/** As proto.ts gives proto-loader (keepCase only matters when parsing .proto text). */
const TO_OBJECT: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: false, oneofs: true };

/**
 * The request or response type of a method, built by protobufjs on first use from the part of
 * the descriptor it reaches (proto/subset.ts), not the whole of it.
 */
function lazyType(service: ServiceName, method: string, side: "request" | "response"): () => protobuf.Type {
  let t: protobuf.Type | null = null;
  return () => {
    if (t) return t;
    const name = methodType(descriptor, SERVICES[service], method, side);
    // A literal require (the global one), so the compiled binary bundles protobufjs: one made by
    // createRequire is resolved at run time, where the binary has no node_modules.
    const pb = require("protobufjs") as typeof protobuf;
    return (t = pb.Root.fromJSON(subsetFor(descriptor, name) as protobuf.INamespace).lookupType(name));
  };
}

/** One method: its path, shape and proto-loader codecs. */
export interface MethodDefinition {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  // Method syntax: a hand-written codec (methods.ts) takes or gives the one shape of its method.
  requestSerialize(v: unknown): Buffer;
  requestDeserialize(b: Buffer): unknown;
  responseSerialize(v: unknown): Buffer;
  responseDeserialize(b: Buffer): unknown;
  originalName: string;
}

export type ServiceDefinition = Record<string, MethodDefinition>;

function serializer(type: () => protobuf.Type): (v: unknown) => Buffer {
  return (v) => {
    const cls = type();
    if (Array.isArray(v)) throw new Error(`Failed to serialize message: expected object with ${cls.name} structure, got array instead`);
    return cls.encode(cls.fromObject(v as Record<string, unknown>)).finish() as Buffer;
  };
}

function deserializer(type: () => protobuf.Type): (b: Buffer) => unknown {
  return (b) => {
    const cls = type();
    return cls.toObject(cls.decode(b), TO_OBJECT);
  };
}

/** The definition of one served service (what `services[s]` of proto.ts holds, minus reflection data). */
export function serviceDefinition(service: ServiceName): ServiceDefinition {
  const out: ServiceDefinition = {};
  for (const [name, m] of Object.entries(serviceMethods(service))) {
    const req = lazyType(service, name, "request");
    const res = lazyType(service, name, "response");
    out[name] = {
      path: `/${SERVICES[service]}/${name}`,
      requestStream: !!m.requestStream,
      responseStream: !!m.responseStream,
      requestSerialize: serializer(req),
      requestDeserialize: deserializer(req),
      responseSerialize: serializer(res),
      responseDeserialize: deserializer(res),
      originalName: name[0]!.toLowerCase() + name.slice(1),
    };
  }
  return out;
}

/** The services the emulator serves and their methods, read from the vendored protos' descriptor. */
import { descriptor } from "../proto/descriptor.ts";

/** Short name (the table's key prefix) → fully-qualified proto name. */
export const SERVICES = {
  Publisher: "google.pubsub.v1.Publisher",
  Subscriber: "google.pubsub.v1.Subscriber",
  SchemaService: "google.pubsub.v1.SchemaService",
  IAMPolicy: "google.iam.v1.IAMPolicy",
} as const;

export type ServiceName = keyof typeof SERVICES;

interface MethodJson {
  requestType: string;
  responseType: string;
  requestStream?: boolean;
  responseStream?: boolean;
  options?: Record<string, unknown>;
}

/** A namespace of the descriptor's JSON (protobufjs' toJSON): packages nest, a service has methods. */
interface Namespace {
  nested?: Record<string, Namespace>;
  methods?: Record<string, MethodJson>;
}

/** The descriptor's entry for a service: its methods with their options (google.api.http …). */
export function serviceMethods(service: ServiceName): Record<string, MethodJson> {
  // The descriptor is JSON the TypeScript compiler reads in full: walked as the namespaces it is made of.
  let node = descriptor as Namespace;
  for (const part of SERVICES[service].split(".")) node = node.nested![part]!;
  return node.methods!;
}

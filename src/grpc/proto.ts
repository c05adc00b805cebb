/**
 * Loads the vendored protos once, from the pre-parsed descriptor (protos/generate.ts writes it
 * from the .proto files); every gRPC adapter shares the definitions.
 */
import * as grpc from "@grpc/grpc-js";
import * as loader from "@grpc/proto-loader";
import { descriptor } from "../proto/descriptor.ts";
import { SERVICES, type ServiceName } from "../rpc/services.ts";

export const packageDefinition = loader.fromJSON(descriptor, {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: false,
  oneofs: true,
});

/** The grpc-js definition of each served service. */
export const services = Object.fromEntries(
  (Object.keys(SERVICES) as ServiceName[]).map((s) => [s, packageDefinition[SERVICES[s]] as grpc.ServiceDefinition]),
) as Record<ServiceName, grpc.ServiceDefinition>;

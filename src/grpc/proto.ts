/**
 * Loads the vendored protos once, from the pre-parsed descriptor (protos/generate.ts writes it
 * from the .proto files); every gRPC adapter shares the definitions.
 */
import * as grpc from "@grpc/grpc-js";
import * as loader from "@grpc/proto-loader";
import descriptor from "../../protos/descriptor.json" with { type: "json" };

export const packageDefinition = loader.fromJSON(descriptor, {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: false,
  oneofs: true,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const root = grpc.loadPackageDefinition(packageDefinition) as any;

export const services = {
  publisher: root.google.pubsub.v1.Publisher.service as grpc.ServiceDefinition,
  subscriber: root.google.pubsub.v1.Subscriber.service as grpc.ServiceDefinition,
};

/** Builds the grpc-js server with every service bound to one broker. */
import * as grpc from "@grpc/grpc-js";
import type { Broker } from "../core/broker.ts";
import { services } from "./proto.ts";
import { publisherHandlers } from "./publisher.ts";
import { subscriberHandlers } from "./subscriber.ts";

/** Room for a 10 MB publish plus framing, so our validation answers instead of the transport's 4 MiB cap. */
const MAX_MESSAGE = 64 * 1024 * 1024;

export function createGrpcServer(broker: Broker): grpc.Server {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  });
  server.addService(services.publisher, publisherHandlers(broker));
  server.addService(services.subscriber, subscriberHandlers(broker));
  return server;
}

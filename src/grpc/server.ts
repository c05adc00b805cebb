/** Builds the grpc-js server with every service bound to one broker. */
import * as grpc from "@grpc/grpc-js";
import type { Broker } from "../core/broker.ts";
import { malformedSafe } from "./malformed.ts";
import {
  decodeAcknowledgeRequest,
  decodeModifyAckDeadlineRequest,
  decodePublishRequest,
  decodeStreamingPullRequest,
  encodeDeliveryResponse,
  encodePublishResponse,
} from "./codec/messages.ts";
import { services } from "./proto.ts";
import { publisherHandlers } from "./publisher.ts";
import { subscriberHandlers } from "./subscriber.ts";

/** Room for a 10 MB publish plus framing, so our validation answers instead of the transport's 4 MiB cap. */
const MAX_MESSAGE = 64 * 1024 * 1024;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Codec = { requestDeserialize?: (b: Buffer) => any; responseSerialize?: (v: any) => Buffer };

/** Hand-written codecs replace protobufjs on the hot path; every decoder is made malformed-safe. */
function withCodecs(service: grpc.ServiceDefinition, codecs: Record<string, Codec>): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    const c = codecs[name] ?? {};
    out[name] = {
      ...method,
      requestDeserialize: malformedSafe(c.requestDeserialize ?? method.requestDeserialize),
      responseSerialize: c.responseSerialize ?? method.responseSerialize,
    };
  }
  return out as grpc.ServiceDefinition;
}

export function createGrpcServer(broker: Broker): grpc.Server {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  });
  server.addService(
    withCodecs(services.publisher, {
      Publish: { requestDeserialize: decodePublishRequest, responseSerialize: encodePublishResponse },
    }),
    publisherHandlers(broker),
  );
  server.addService(
    withCodecs(services.subscriber, {
      Acknowledge: { requestDeserialize: decodeAcknowledgeRequest },
      ModifyAckDeadline: { requestDeserialize: decodeModifyAckDeadlineRequest },
      Pull: { responseSerialize: encodeDeliveryResponse },
      StreamingPull: { requestDeserialize: decodeStreamingPullRequest, responseSerialize: encodeDeliveryResponse },
    }),
    subscriberHandlers(broker),
  );
  return server;
}

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
import { checkUtf8, hasReplacementChar, requestType } from "./utf8-check.ts";

/** Room for a 10 MB publish plus framing, so our validation answers instead of the transport's 4 MiB cap. */
const MAX_MESSAGE = 64 * 1024 * 1024;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Codec = { requestDeserialize?: (b: Buffer) => any; responseSerialize?: (v: any) => Buffer };

/**
 * Hand-written codecs replace protobufjs on the hot path; the protobufjs decoders get the UTF-8
 * check the hand-written ones do inline; every decoder is made malformed-safe.
 */
function withCodecs(service: grpc.ServiceDefinition, codecs: Record<string, Codec>): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    const c = codecs[name] ?? {};
    out[name] = {
      ...method,
      requestDeserialize: malformedSafe(c.requestDeserialize ?? utf8Checked(method)),
      responseSerialize: c.responseSerialize ?? method.responseSerialize,
    };
  }
  return out as grpc.ServiceDefinition;
}

function utf8Checked(method: grpc.MethodDefinition<unknown, unknown>): (b: Buffer) => unknown {
  const [, service, name] = method.path.split("/");
  let type: ReturnType<typeof requestType> | null = null;
  return (b) => {
    const req = method.requestDeserialize(b);
    // Bad bytes decode to U+FFFD: only a request holding one needs the exact check of its bytes.
    if (hasReplacementChar(req, 0)) checkUtf8((type ??= requestType(service, name)), b);
    return req;
  };
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

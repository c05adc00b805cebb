/** Builds the grpc-js server: every service of the RPC table, with hand-written codecs on the hot RPCs. */
import * as grpc from "@grpc/grpc-js";
import type { RpcTable } from "../rpc/table.ts";
import { SERVICES, type ServiceName } from "../rpc/services.ts";
import { installFramedSend } from "./framed.ts";
import { malformedSafe } from "./malformed.ts";
import {
  decodeAcknowledgeRequest,
  decodeModifyAckDeadlineRequest,
  decodePublishRequest,
  decodeStreamingPullRequest,
  encodeDeliveryResponse,
  encodePublishResponse,
} from "./codec/messages.ts";
import { unary } from "./handler.ts";
import { serviceDefinition } from "./definitions.ts";
import { streamingPull } from "./streaming-pull.ts";
import { checkUtf8, hasReplacementChar, requestType } from "./utf8-check.ts";

/** Room for a 10 MB publish plus framing, so our validation answers instead of the transport's 4 MiB cap. */
const MAX_MESSAGE = 64 * 1024 * 1024;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Codec = { requestDeserialize?: (b: Buffer) => any; responseSerialize?: (v: any) => Buffer };

const CODECS: Partial<Record<ServiceName, Record<string, Codec>>> = {
  Publisher: { Publish: { requestDeserialize: decodePublishRequest, responseSerialize: encodePublishResponse } },
  Subscriber: {
    Acknowledge: { requestDeserialize: decodeAcknowledgeRequest },
    ModifyAckDeadline: { requestDeserialize: decodeModifyAckDeadlineRequest },
    Pull: { responseSerialize: encodeDeliveryResponse },
    StreamingPull: { requestDeserialize: decodeStreamingPullRequest, responseSerialize: encodeDeliveryResponse },
  },
};

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

export function createGrpcServer(table: RpcTable): grpc.Server {
  installFramedSend();
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  });
  for (const service of Object.keys(SERVICES) as ServiceName[]) {
    const definition = serviceDefinition(service);
    server.addService(withCodecs(definition, CODECS[service] ?? {}), handlers(service, definition, table));
  }
  return server;
}

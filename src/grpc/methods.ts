/**
 * Every served method with its codecs, for whichever gRPC server carries them: hand-written codecs
 * replace protobufjs on the hot RPCs; the protobufjs decoders get the UTF-8 check the hand-written
 * ones do inline; every decoder is made malformed-safe.
 */
import type * as grpc from "@grpc/grpc-js";
import { SERVICES, type ServiceName } from "../rpc/services.ts";
import { malformedSafe } from "./malformed.ts";
import {
  decodeAcknowledgeRequest,
  decodeModifyAckDeadlineRequest,
  decodePublishRequest,
  decodeStreamingPullRequest,
  encodeDeliveryResponse,
  encodePublishResponse,
} from "./codec/messages.ts";
import { serviceDefinition } from "./definitions.ts";
import { checkUtf8, hasReplacementChar, requestType } from "./utf8-check.ts";

/** Room for a 10 MB publish plus framing, so our validation answers instead of the transport's 4 MiB cap. */
export const MAX_MESSAGE = 64 * 1024 * 1024;

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

/** One service's definition (grpc-js's shape, which is plain data) with our codecs in it. */
export function servedDefinition(service: ServiceName): grpc.ServiceDefinition {
  const codecs = CODECS[service] ?? {};
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(serviceDefinition(service))) {
    const c = codecs[name] ?? {};
    out[name] = {
      ...method,
      requestDeserialize: malformedSafe(c.requestDeserialize ?? utf8Checked(method)),
      responseSerialize: c.responseSerialize ?? method.responseSerialize,
    };
  }
  return out as grpc.ServiceDefinition;
}

export const servedServices = () => Object.keys(SERVICES) as ServiceName[];

/**
 * Every served method with its codecs, for whichever gRPC server carries them: hand-written codecs
 * replace protobufjs on the hot RPCs; the protobufjs decoders get the UTF-8 check the hand-written
 * ones do inline; every decoder is made malformed-safe.
 */
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
import { serviceDefinition, type MethodDefinition, type ServiceDefinition } from "./definitions.ts";
import { checkUtf8, hasReplacementChar, requestType } from "./utf8-check.ts";

/** Room for a 10 MB publish plus framing, so our validation answers instead of the transport's 4 MiB cap. */
export const MAX_MESSAGE = 64 * 1024 * 1024;

type Codec = Partial<Pick<MethodDefinition, "requestDeserialize" | "responseSerialize">>;

const CODECS: Partial<Record<ServiceName, Record<string, Codec>>> = {
  Publisher: { Publish: { requestDeserialize: decodePublishRequest, responseSerialize: encodePublishResponse } },
  Subscriber: {
    Acknowledge: { requestDeserialize: decodeAcknowledgeRequest },
    ModifyAckDeadline: { requestDeserialize: decodeModifyAckDeadlineRequest },
    Pull: { responseSerialize: encodeDeliveryResponse },
    StreamingPull: { requestDeserialize: decodeStreamingPullRequest, responseSerialize: encodeDeliveryResponse },
  },
};

function utf8Checked(method: MethodDefinition): (b: Buffer) => unknown {
  const [, service, name] = method.path.split("/");
  let type: ReturnType<typeof requestType> | null = null;
  return (b) => {
    const req = method.requestDeserialize(b);
    // Bad bytes decode to U+FFFD: only a request holding one needs the exact check of its bytes.
    if (hasReplacementChar(req, 0)) checkUtf8((type ??= requestType(service, name)), b);
    return req;
  };
}

/** One service's definition with our codecs in it. */
export function servedDefinition(service: ServiceName): ServiceDefinition {
  const codecs = CODECS[service] ?? {};
  const out: ServiceDefinition = {};
  for (const [name, method] of Object.entries(serviceDefinition(service))) {
    const c = codecs[name] ?? {};
    out[name] = {
      ...method,
      requestDeserialize: malformedSafe(c.requestDeserialize ?? utf8Checked(method)),
      responseSerialize: c.responseSerialize ?? method.responseSerialize,
    };
  }
  return out;
}

export const servedServices = () => Object.keys(SERVICES) as ServiceName[];

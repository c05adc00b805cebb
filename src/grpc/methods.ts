/**
 * Every served method with its codecs, for whichever gRPC server carries them: hand-written codecs
 * on the hot RPCs, the descriptor codec (codec/descriptor-codec.ts: no protobufjs, UTF-8 checked
 * inline) on every other; every decoder is made malformed-safe. definitions.ts's protobufjs codecs
 * stay the client side of the definition (requestSerialize, responseDeserialize).
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
import { decodeMessage, encodeMessage } from "./codec/descriptor-codec.ts";
import { DescriptorTypes } from "./codec/descriptor-types.ts";
import { decodePlainPullRequest } from "./codec/pull-request.ts";
import descriptor from "../../protos/descriptor.json" with { type: "json" };
import { methodType } from "../proto/subset.ts";

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

let types: DescriptorTypes | undefined;

/** A method's request or response type in the descriptor codec's tables, built on its first call. */
function lazyInfo(service: ServiceName, method: string, side: "request" | "response") {
  let info: ReturnType<DescriptorTypes["message"]> | undefined;
  return () => (info ??= (types ??= new DescriptorTypes(descriptor)).message(methodType(descriptor, SERVICES[service], method, side)));
}

/** The descriptor codec of one method: its request's decoder and its response's encoder. */
export function descriptorCodec(service: ServiceName, method: string): Required<Codec> {
  const req = lazyInfo(service, method, "request");
  const res = lazyInfo(service, method, "response");
  return { requestDeserialize: (b) => decodeMessage(req(), b), responseSerialize: (v) => encodeMessage(res(), v) };
}

/** One service's definition with our codecs in it. */
export function servedDefinition(service: ServiceName): ServiceDefinition {
  const codecs = CODECS[service] ?? {};
  const out: ServiceDefinition = {};
  for (const [name, method] of Object.entries(serviceDefinition(service))) {
    const general = descriptorCodec(service, name);
    const c = { ...general, ...codecs[name] };
    if (service === "Subscriber" && name === "Pull") c.requestDeserialize = (b) => decodePlainPullRequest(b) ?? general.requestDeserialize(b);
    out[name] = { ...method, requestDeserialize: malformedSafe(c.requestDeserialize), responseSerialize: c.responseSerialize };
  }
  return out;
}

export const servedServices = () => Object.keys(SERVICES) as ServiceName[];

/**
 * What an RPC is to every side of the table: the handlers (rpc/*), the table that gathers them,
 * the middlewares that wrap it and the transports that call it. Kept apart so handlers never
 * import the table.
 *
 * The contract is typed per method: RpcShapes maps "Service.Method" to its request and response,
 * read from the services' types that proto-loader-gen-types writes from the vendored protos
 * (protos/types/, `bun protos/generate.ts`): requests as proto-loader decodes them (its __Output
 * types), responses as it encodes them. The hot RPCs, whose hand-written codecs (grpc/codec/) and
 * REST mapper (rest/publish-pull.ts) speak core shapes instead, and the REST-only methods, are
 * declared here; every request type of the table lives in this file or protos/types/.
 */
import type { MethodDefinition } from "@grpc/proto-loader";
import type { DeliveryBatch } from "../core/delivery/delivery-batch.ts";
import type { StreamSession, StreamRequest, StreamSink } from "../core/delivery/stream-session.ts";
import type { MessageInput } from "../core/message.ts";
import type { PublisherDefinition } from "../../protos/types/google/pubsub/v1/Publisher";
import type { SubscriberDefinition } from "../../protos/types/google/pubsub/v1/Subscriber";
import type { SchemaServiceDefinition } from "../../protos/types/google/pubsub/v1/SchemaService";
import type { IAMPolicyDefinition } from "../../protos/types/google/iam/v1/IAMPolicy";
import type { Empty } from "../../protos/types/google/protobuf/Empty";
import type { MessageTransform__Output } from "../../protos/types/google/pubsub/v1/MessageTransform";
import type { PubsubMessage, PubsubMessage__Output } from "../../protos/types/google/pubsub/v1/PubsubMessage";

/** A message in proto-loader's shape whose type the caller does not know (provisioning, conversions). */
export type ProtoObject = Record<string, unknown>;

/** Publish takes core inputs: the gRPC codec and the REST mapper both decode straight to them. */
export interface PublishRequest {
  topic: string;
  messages: MessageInput[];
  /** Serialized size, checked against the 10,000,000-byte request limit. */
  requestBytes?: number;
}

export interface AckRequest {
  subscription: string;
  ackIds?: string[];
}

export interface ModAckRequest extends AckRequest {
  ackDeadlineSeconds?: number;
}

export type { StreamRequest };

/** A method's request and response. */
interface Shape<Req, Res> {
  req: Req;
  res: Res;
}

/** A generated service definition's methods as shapes: proto-loader's decoded request, its encodable response. */
type Shapes<D> = {
  [M in keyof D]: D[M] extends MethodDefinition<infer _ReqIn, infer ResIn, infer ReqOut, infer _ResOut> ? Shape<ReqOut, ResIn> : never;
};

type Prefixed<S extends string, D> = { [M in keyof D & string as `${S}.${M}`]: D[M] };

type FromProtos = Prefixed<"Publisher", Shapes<PublisherDefinition>> &
  Prefixed<"Subscriber", Shapes<SubscriberDefinition>> &
  Prefixed<"SchemaService", Shapes<SchemaServiceDefinition>> &
  Prefixed<"IAMPolicy", Shapes<IAMPolicyDefinition>>;

/** The RPCs whose codecs speak core shapes, and the REST-only methods (in the discovery document, not the protos). */
interface OwnShapes {
  "Publisher.Publish": Shape<PublishRequest, { messageIds: string[] }>;
  "Subscriber.Acknowledge": Shape<AckRequest, Empty>;
  "Subscriber.ModifyAckDeadline": Shape<ModAckRequest, Empty>;
  "Subscriber.Pull": Shape<FromProtos["Subscriber.Pull"]["req"], DeliveryBatch>;
  "Projects.ValidateMessageTransform": Shape<{ project: string; messageTransform?: MessageTransform__Output }, Empty>;
  "Projects.TestMessageTransforms": Shape<
    {
      project: string;
      message: PubsubMessage__Output;
      messageTransforms?: { messageTransforms?: MessageTransform__Output[] };
      topic?: string;
      subscription?: string;
    },
    { transformedMessages: TransformedMessage[] }
  >;
}

/** One result of TestMessageTransforms (the discovery document's TransformedMessage). */
export type TransformedMessage =
  | { filteredMessage: Empty }
  | { failedMessage: { error: { code: number; message: string } } }
  | { transformedMessage: PubsubMessage };

/** Every unary RPC of the table by "Service.Method" (StreamingPull is the table's openStream). */
export type RpcShapes = Omit<FromProtos, keyof OwnShapes | "Subscriber.StreamingPull"> & OwnShapes;
export type RpcName = keyof RpcShapes & string;
export type RpcRequest<N extends RpcName> = RpcShapes[N]["req"];
export type RpcResponse<N extends RpcName> = RpcShapes[N]["res"];

/** What a handler may ask of the call that carries it. */
export interface CallContext {
  /** Runs `fn` if the caller goes away before the answer (a waiting Pull stops waiting). */
  onCancel(fn: () => void): void;
}

/** One RPC's handler, typed by the contract. */
export type Rpc<N extends RpcName> = (req: RpcRequest<N>, ctx: CallContext) => RpcResponse<N> | Promise<RpcResponse<N>>;

/** A service's handlers, by method name ("Publisher" → CreateTopic, Publish, …). */
export type ServiceRpcs<S extends string> = { [N in RpcName as N extends `${S}.${infer M}` ? M : never]: Rpc<N> };

/**
 * An RPC as the table holds it for the transports, which look it up by name and hand over what
 * that method's own codec decoded. Declared as a method so every typed Rpc<N> is one (parameters
 * of methods are compared both ways): the codec, not the compiler, ties a request to its method.
 */
type AsMethod = { call(req: unknown, ctx: CallContext): unknown };
export type UnaryRpc = AsMethod["call"];

/**
 * A unary result that says nothing the call made keeps a reference into its decoded request (a
 * Publish whose messages no one holds): the transport may use the request's bytes again.
 */
export interface ReleasesRequest {
  readonly requestReleased: boolean;
}

export const releasesRequest = (result: unknown): boolean =>
  typeof result === "object" && result !== null && (result as Partial<ReleasesRequest>).requestReleased === true;

/** What a transport holds for one open StreamingPull stream. */
export type StreamHandle = Pick<StreamSession, "handle" | "late" | "drained" | "close">;

/** Subscriber.StreamingPull: validates the first request and starts a session. */
export type StreamOpener = (first: StreamRequest, sink: StreamSink) => StreamHandle;

export interface RpcTable {
  /** Every unary RPC of every service, by "Service.Method". */
  readonly unary: ReadonlyMap<string, UnaryRpc>;
  readonly openStream: StreamOpener;
}

export const NO_CONTEXT: CallContext = { onCancel: () => {} };

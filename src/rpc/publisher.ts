/** google.pubsub.v1.Publisher: each RPC is one broker call between two conversions. */
import type { Broker } from "../core/broker.ts";
import type { MessageInput } from "../core/message.ts";
import { topicFromProto, topicToProto } from "./convert.ts";
import type { ProtoObject, ReleasesRequest, UnaryRpc } from "./contract.ts";

const EMPTY = Object.freeze({});

/** Publish takes core inputs: the gRPC codec and the REST mapper both decode straight to them. */
export interface PublishRequest {
  topic: string;
  messages: MessageInput[];
  /** Serialized size, checked against the 10,000,000-byte request limit. */
  requestBytes?: number;
}

/**
 * Publish's answer: its messages' seqs, whose decimal forms are the message ids (the store's
 * contract). The gRPC codec writes the digits straight from the seqs; every other reader (REST,
 * the admin API, protobufjs) reads messageIds, made when read.
 */
export class PublishResponse implements ReleasesRequest {
  constructor(
    readonly seqs: readonly number[],
    /** No message of the request is held (a topic without subscriptions or log): its bytes may be used again. */
    readonly requestReleased = false,
  ) {}

  get messageIds(): string[] {
    return this.seqs.map(String);
  }

  toJSON(): { messageIds: string[] } {
    return { messageIds: this.messageIds };
  }
}

export function publisherRpcs(broker: Broker): Record<string, UnaryRpc> {
  return {
    CreateTopic: (req: ProtoObject) => topicToProto(broker.topics.create(topicFromProto(req))),
    GetTopic: (req: ProtoObject) => topicToProto(broker.topics.get(req.topic)),
    UpdateTopic: (req: ProtoObject) =>
      topicToProto(broker.topics.update(topicFromProto(req.topic), req.updateMask?.paths ?? [])),
    ListTopics: (req: ProtoObject) => {
      const page = broker.topics.list(req.project, req.pageSize, req.pageToken);
      return { topics: page.items.map(topicToProto), nextPageToken: page.nextPageToken };
    },
    ListTopicSnapshots: (req: ProtoObject) => {
      const page = broker.topics.listSnapshots(req.topic, req.pageSize, req.pageToken);
      return { snapshots: page.items, nextPageToken: page.nextPageToken };
    },
    ListTopicSubscriptions: (req: ProtoObject) => {
      const page = broker.topics.listSubscriptions(req.topic, req.pageSize, req.pageToken);
      return { subscriptions: page.items, nextPageToken: page.nextPageToken };
    },
    DeleteTopic: (req: ProtoObject) => {
      broker.topics.delete(req.topic);
      return EMPTY;
    },
    DetachSubscription: (req: ProtoObject) => {
      broker.detachSubscription(req.subscription);
      return EMPTY;
    },
    Publish: (req: PublishRequest) => {
      const topics = broker.topics;
      if (topics.publishesAsync(req.topic)) return topics.publishAsync(req.topic, req.messages ?? [], req.requestBytes).then((seqs) => new PublishResponse(seqs));
      const seqs = topics.publishSeqs(req.topic, req.messages ?? [], req.requestBytes);
      return new PublishResponse(seqs, !topics.keepsMessages(req.topic));
    },
  };
}

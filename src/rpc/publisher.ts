/** google.pubsub.v1.Publisher: each RPC is one broker call between two conversions. */
import type { Broker } from "../core/broker.ts";
import type { MessageInput } from "../core/message.ts";
import { topicFromProto, topicToProto } from "./convert.ts";
import type { ProtoObject, UnaryRpc } from "./contract.ts";

const EMPTY = Object.freeze({});

/** Publish takes core inputs: the gRPC codec and the REST mapper both decode straight to them. */
export interface PublishRequest {
  topic: string;
  messages: MessageInput[];
  /** Serialized size, checked against the 10,000,000-byte request limit. */
  requestBytes?: number;
}

export function publisherRpcs(broker: Broker): Record<string, UnaryRpc> {
  return {
    CreateTopic: (req: ProtoObject) => topicToProto(broker.createTopic(topicFromProto(req))),
    GetTopic: (req: ProtoObject) => topicToProto(broker.getTopic(req.topic)),
    UpdateTopic: (req: ProtoObject) =>
      topicToProto(broker.updateTopic(topicFromProto(req.topic), req.updateMask?.paths ?? [])),
    ListTopics: (req: ProtoObject) => {
      const page = broker.listTopics(req.project, req.pageSize, req.pageToken);
      return { topics: page.items.map(topicToProto), nextPageToken: page.nextPageToken };
    },
    ListTopicSnapshots: (req: ProtoObject) => {
      const page = broker.listTopicSnapshots(req.topic, req.pageSize, req.pageToken);
      return { snapshots: page.items, nextPageToken: page.nextPageToken };
    },
    ListTopicSubscriptions: (req: ProtoObject) => {
      const page = broker.listTopicSubscriptions(req.topic, req.pageSize, req.pageToken);
      return { subscriptions: page.items, nextPageToken: page.nextPageToken };
    },
    DeleteTopic: (req: ProtoObject) => {
      broker.deleteTopic(req.topic);
      return EMPTY;
    },
    DetachSubscription: (req: ProtoObject) => {
      broker.detachSubscription(req.subscription);
      return EMPTY;
    },
    Publish: (req: PublishRequest) => {
      if (broker.publishesAsync(req.topic)) return broker.publishAsync(req.topic, req.messages ?? [], req.requestBytes).then((messageIds) => ({ messageIds }));
      return { messageIds: broker.publish(req.topic, req.messages ?? [], req.requestBytes) };
    },
  };
}

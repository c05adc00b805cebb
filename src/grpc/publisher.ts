/** google.pubsub.v1.Publisher: each handler is one broker call between two conversions. */
import type * as grpc from "@grpc/grpc-js";
import type { Broker } from "../core/broker.ts";
import { topicFromProto, topicToProto } from "./convert.ts";
import { unary } from "./handler.ts";
import { unimplemented } from "./status.ts";

const EMPTY = {};

export function publisherHandlers(broker: Broker): grpc.UntypedServiceImplementation {
  return {
    CreateTopic: unary((req) => topicToProto(broker.createTopic(topicFromProto(req)))),
    GetTopic: unary((req) => topicToProto(broker.getTopic(req.topic))),
    UpdateTopic: unary((req) =>
      topicToProto(broker.updateTopic(topicFromProto(req.topic), req.updateMask?.paths ?? [])),
    ),
    ListTopics: unary((req) => {
      const page = broker.listTopics(req.project, req.pageSize, req.pageToken);
      return { topics: page.items.map(topicToProto), nextPageToken: page.nextPageToken };
    }),
    ListTopicSubscriptions: unary((req) => {
      const page = broker.listTopicSubscriptions(req.topic, req.pageSize, req.pageToken);
      return { subscriptions: page.items, nextPageToken: page.nextPageToken };
    }),
    ListTopicSnapshots: unary(() => {
      throw unimplemented("ListTopicSnapshots");
    }),
    DeleteTopic: unary((req) => {
      broker.deleteTopic(req.topic);
      return EMPTY;
    }),
    DetachSubscription: unary((req) => {
      broker.detachSubscription(req.subscription);
      return EMPTY;
    }),
    // The request comes from the hand-written codec: messages are already core inputs.
    Publish: unary((req) => ({ messageIds: broker.publish(req.topic, req.messages, req.requestBytes) })),
  };
}

/** google.pubsub.v1.Publisher: each RPC is one broker call between two conversions. */
import type { Broker } from "../core/broker.ts";
import { topicFromProto, topicToProto } from "./convert.ts";
import type { ReleasesRequest, ServiceRpcs } from "./contract.ts";

const EMPTY = Object.freeze({});

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

export function publisherRpcs(broker: Broker): ServiceRpcs<"Publisher"> {
  return {
    CreateTopic: (req) => topicToProto(broker.topics.create(topicFromProto(req))),
    GetTopic: (req) => topicToProto(broker.topics.get(req.topic ?? "")),
    UpdateTopic: (req) =>
      topicToProto(broker.topics.update(topicFromProto(req.topic), req.updateMask?.paths ?? [])),
    ListTopics: (req) => {
      const page = broker.topics.list(req.project ?? "", req.pageSize, req.pageToken);
      return { topics: page.items.map(topicToProto), nextPageToken: page.nextPageToken };
    },
    ListTopicSnapshots: (req) => {
      const page = broker.topics.listSnapshots(req.topic ?? "", req.pageSize, req.pageToken);
      return { snapshots: page.items, nextPageToken: page.nextPageToken };
    },
    ListTopicSubscriptions: (req) => {
      const page = broker.topics.listSubscriptions(req.topic ?? "", req.pageSize, req.pageToken);
      return { subscriptions: page.items, nextPageToken: page.nextPageToken };
    },
    DeleteTopic: (req) => {
      broker.topics.delete(req.topic ?? "");
      return EMPTY;
    },
    DetachSubscription: (req) => {
      broker.detachSubscription(req.subscription ?? "");
      return EMPTY;
    },
    Publish: (req) => {
      const topics = broker.topics;
      if (topics.publishesAsync(req.topic)) return topics.publishAsync(req.topic, req.messages ?? [], req.requestBytes).then((seqs) => new PublishResponse(seqs));
      const seqs = topics.publishSeqs(req.topic, req.messages ?? [], req.requestBytes);
      // Subscriptions whose transforms run in the worker pool: answered once the messages are ready to deliver.
      const prepared = topics.takePrepared(req.topic);
      if (prepared) return prepared.then(() => new PublishResponse(seqs));
      return new PublishResponse(seqs, !topics.keepsMessages(req.topic));
    },
  };
}

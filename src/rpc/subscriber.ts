/** google.pubsub.v1.Subscriber's unary RPCs; StreamingPull is the table's openStream. */
import type { Broker } from "../core/broker.ts";
import { deliveryBatch, type DeliveryBatch } from "../core/delivery/delivery-batch.ts";
import { snapshotFromProto, snapshotToProto, subscriptionFromProto, subscriptionToProto, timestampToMs } from "./convert.ts";
import type { CallContext, ProtoObject, UnaryRpc } from "./contract.ts";

const EMPTY = Object.freeze({});

export interface AckRequest {
  subscription: string;
  ackIds?: string[];
}

export interface ModAckRequest extends AckRequest {
  ackDeadlineSeconds?: number;
}

export interface PullRequest {
  subscription: string;
  maxMessages?: number;
  returnImmediately?: boolean;
}

export function subscriberRpcs(broker: Broker): Record<string, UnaryRpc> {
  return {
    CreateSubscription: (req: ProtoObject) => subscriptionToProto(broker.subscriptions.create(subscriptionFromProto(req))),
    GetSubscription: (req: ProtoObject) => subscriptionToProto(broker.subscriptions.get(req.subscription)),
    UpdateSubscription: (req: ProtoObject) =>
      subscriptionToProto(broker.subscriptions.update(subscriptionFromProto(req.subscription), req.updateMask?.paths ?? [])),
    ListSubscriptions: (req: ProtoObject) => {
      const page = broker.subscriptions.list(req.project, req.pageSize, req.pageToken);
      return { subscriptions: page.items.map(subscriptionToProto), nextPageToken: page.nextPageToken };
    },
    DeleteSubscription: (req: ProtoObject) => {
      broker.subscriptions.delete(req.subscription);
      return EMPTY;
    },
    ModifyAckDeadline: (req: ModAckRequest) => {
      broker.subscriptions.modifyAckDeadline(req.subscription, req.ackIds ?? [], req.ackDeadlineSeconds ?? 0);
      return EMPTY;
    },
    Acknowledge: (req: AckRequest) => {
      broker.subscriptions.acknowledge(req.subscription, req.ackIds ?? []);
      return EMPTY;
    },
    Pull: (req: PullRequest, ctx: CallContext): Promise<DeliveryBatch> => {
      const handle = broker.subscriptions.pull(req.subscription, req.maxMessages ?? 0, !!req.returnImmediately);
      const sub = broker.subscriptions.lookup(req.subscription);
      ctx.onCancel(handle.cancel);
      return handle.result.then((deliveries) => deliveryBatch(sub.config, deliveries, false));
    },
    ModifyPushConfig: (req: ProtoObject) => {
      broker.subscriptions.modifyPushConfig(req.subscription, req.pushConfig ?? undefined);
      return EMPTY;
    },
    CreateSnapshot: (req: ProtoObject) =>
      snapshotToProto(broker.createSnapshot(req.name ?? "", req.subscription, req.labels ?? undefined, req.tags ?? undefined)),
    GetSnapshot: (req: ProtoObject) => snapshotToProto(broker.getSnapshot(req.snapshot)),
    ListSnapshots: (req: ProtoObject) => {
      const page = broker.listSnapshots(req.project, req.pageSize, req.pageToken);
      return { snapshots: page.items.map(snapshotToProto), nextPageToken: page.nextPageToken };
    },
    UpdateSnapshot: (req: ProtoObject) =>
      snapshotToProto(broker.updateSnapshot(snapshotFromProto(req.snapshot), req.updateMask?.paths ?? [])),
    DeleteSnapshot: (req: ProtoObject) => {
      broker.deleteSnapshot(req.snapshot);
      return EMPTY;
    },
    Seek: (req: ProtoObject) => {
      const time = req.time ? timestampToMs(req.time) : undefined;
      broker.seek(req.subscription, req.snapshot ? { snapshot: req.snapshot } : { time });
      return EMPTY;
    },
  };
}

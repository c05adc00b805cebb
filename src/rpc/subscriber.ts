/** google.pubsub.v1.Subscriber's unary RPCs; StreamingPull is the table's openStream. */
import type { Broker } from "../core/broker.ts";
import { deliveryBatch } from "../core/delivery/delivery-batch.ts";
import { snapshotFromProto, snapshotToProto, subscriptionFromProto, subscriptionToProto, timestampToMs } from "./convert.ts";
import type { ProtoObject, ServiceRpcs } from "./contract.ts";

const EMPTY = Object.freeze({});

export function subscriberRpcs(broker: Broker): ServiceRpcs<"Subscriber"> {
  return {
    CreateSubscription: (req) => subscriptionToProto(broker.subscriptions.create(subscriptionFromProto(req))),
    GetSubscription: (req) => subscriptionToProto(broker.subscriptions.get(req.subscription ?? "")),
    UpdateSubscription: (req) =>
      subscriptionToProto(broker.subscriptions.update(subscriptionFromProto(req.subscription), req.updateMask?.paths ?? [])),
    ListSubscriptions: (req) => {
      const page = broker.subscriptions.list(req.project ?? "", req.pageSize, req.pageToken);
      return { subscriptions: page.items.map(subscriptionToProto), nextPageToken: page.nextPageToken };
    },
    DeleteSubscription: (req) => {
      broker.subscriptions.delete(req.subscription ?? "");
      return EMPTY;
    },
    ModifyAckDeadline: (req) => {
      broker.subscriptions.modifyAckDeadline(req.subscription, req.ackIds ?? [], req.ackDeadlineSeconds ?? 0);
      return EMPTY;
    },
    Acknowledge: (req) => {
      broker.subscriptions.acknowledge(req.subscription, req.ackIds ?? []);
      return EMPTY;
    },
    Pull: (req, ctx) => {
      const handle = broker.subscriptions.pull(req.subscription ?? "", req.maxMessages ?? 0, !!req.returnImmediately);
      const sub = broker.subscriptions.lookup(req.subscription ?? "");
      ctx.onCancel(handle.cancel);
      return handle.result.then((deliveries) => deliveryBatch(sub.config, deliveries, false));
    },
    ModifyPushConfig: (req) => {
      broker.subscriptions.modifyPushConfig(req.subscription ?? "", (req.pushConfig as ProtoObject | undefined) ?? undefined);
      return EMPTY;
    },
    CreateSnapshot: (req) =>
      snapshotToProto(broker.createSnapshot(req.name ?? "", req.subscription ?? "", req.labels ?? undefined, req.tags ?? undefined)),
    GetSnapshot: (req) => snapshotToProto(broker.getSnapshot(req.snapshot ?? "")),
    ListSnapshots: (req) => {
      const page = broker.listSnapshots(req.project ?? "", req.pageSize, req.pageToken);
      return { snapshots: page.items.map(snapshotToProto), nextPageToken: page.nextPageToken };
    },
    UpdateSnapshot: (req) =>
      snapshotToProto(broker.updateSnapshot(snapshotFromProto(req.snapshot), req.updateMask?.paths ?? [])),
    DeleteSnapshot: (req) => {
      broker.deleteSnapshot(req.snapshot ?? "");
      return EMPTY;
    },
    Seek: (req) => {
      const time = req.time ? timestampToMs(req.time) : undefined;
      broker.seek(req.subscription ?? "", req.snapshot ? { snapshot: req.snapshot } : { time });
      return EMPTY;
    },
  };
}

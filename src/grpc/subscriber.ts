/** google.pubsub.v1.Subscriber: admin, Pull, Acknowledge, ModifyAckDeadline; StreamingPull is in its own file. */
import type * as grpc from "@grpc/grpc-js";
import type { Broker } from "../core/broker.ts";
import { subscriptionFromProto, subscriptionToProto } from "./convert.ts";
import { unary } from "./handler.ts";
import { unimplemented } from "./status.ts";
import { streamingPull } from "./streaming-pull.ts";

const EMPTY = {};

export function subscriberHandlers(broker: Broker): grpc.UntypedServiceImplementation {
  const notYet = (name: string) =>
    unary(() => {
      throw unimplemented(name);
    });
  return {
    CreateSubscription: unary((req) => subscriptionToProto(broker.createSubscription(subscriptionFromProto(req)))),
    GetSubscription: unary((req) => subscriptionToProto(broker.getSubscription(req.subscription))),
    UpdateSubscription: unary((req) =>
      subscriptionToProto(broker.updateSubscription(subscriptionFromProto(req.subscription), req.updateMask?.paths ?? [])),
    ),
    ListSubscriptions: unary((req) => {
      const page = broker.listSubscriptions(req.project, req.pageSize, req.pageToken);
      return { subscriptions: page.items.map(subscriptionToProto), nextPageToken: page.nextPageToken };
    }),
    DeleteSubscription: unary((req) => {
      broker.deleteSubscription(req.subscription);
      return EMPTY;
    }),
    ModifyAckDeadline: unary((req) => {
      broker.modifyAckDeadline(req.subscription, req.ackIds ?? [], req.ackDeadlineSeconds ?? 0);
      return EMPTY;
    }),
    Acknowledge: unary((req) => {
      broker.acknowledge(req.subscription, req.ackIds ?? []);
      return EMPTY;
    }),
    Pull: unary((req, call) => {
      const withAttempt = !!broker.getSubscription(req.subscription).deadLetterPolicy;
      const handle = broker.pull(req.subscription, req.maxMessages ?? 0, !!req.returnImmediately);
      call.on("cancelled", handle.cancel);
      return handle.result.then((deliveries) => ({ deliveries, withAttempt }));
    }),
    StreamingPull: streamingPull(broker),
    ModifyPushConfig: unary((req) => {
      const sub = broker.getSubscription(req.subscription);
      broker.updateSubscription({ ...sub, pushConfig: req.pushConfig ?? undefined }, ["push_config"]);
      return EMPTY;
    }),
    GetSnapshot: notYet("GetSnapshot"),
    ListSnapshots: notYet("ListSnapshots"),
    CreateSnapshot: notYet("CreateSnapshot"),
    UpdateSnapshot: notYet("UpdateSnapshot"),
    DeleteSnapshot: notYet("DeleteSnapshot"),
    Seek: notYet("Seek"),
  };
}

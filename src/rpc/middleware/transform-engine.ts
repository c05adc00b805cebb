/**
 * The transform engine (QuickJS) is loaded on the first request that needs it, before the broker
 * (which is synchronous) sees that request; until then no RPC pays anything for it.
 */
import type { Broker } from "../../core/broker.ts";
import { hasJavaScriptUdf } from "../../core/stages/transforms.ts";
import type { RpcRequest } from "../contract.ts";
import type { RpcMiddleware } from "./compose.ts";

type Carrier = "Publisher.CreateTopic" | "Publisher.UpdateTopic" | "Subscriber.CreateSubscription" | "Subscriber.UpdateSubscription";

/** The RPCs that may carry message_transforms, and where: the request itself, or its topic / subscription. Only JavaScript UDFs need the engine. */
const CARRIERS: { [N in Carrier]: (req: RpcRequest<N>) => boolean } = {
  "Publisher.CreateTopic": (req) => hasJavaScriptUdf(req?.messageTransforms),
  "Publisher.UpdateTopic": (req) => hasJavaScriptUdf(req?.topic?.messageTransforms),
  "Subscriber.CreateSubscription": (req) => hasJavaScriptUdf(req?.messageTransforms),
  "Subscriber.UpdateSubscription": (req) => hasJavaScriptUdf(req?.subscription?.messageTransforms),
};

/** The REST-only transform methods always need it. */
const ALWAYS = new Set(["Projects.ValidateMessageTransform", "Projects.TestMessageTransforms"]);

const isCarrier = (name: string): name is Carrier => Object.hasOwn(CARRIERS, name);

export function loadsTransformEngine(broker: Broker): RpcMiddleware {
  return {
    unary(name, next) {
      // Each carrier's test reads its own method's request: the table hands it that method's.
      const needs: ((req: never) => boolean) | undefined = isCarrier(name) ? CARRIERS[name] : ALWAYS.has(name) ? () => true : undefined;
      if (!needs) return next;
      return (req, ctx) => {
        if (broker.transformEngine || !needs(req as never)) return next(req, ctx);
        return broker.ensureTransformEngine().then(() => next(req, ctx));
      };
    },
  };
}

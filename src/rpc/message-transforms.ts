/**
 * The REST-only methods gcloud's `pubsub message-transforms validate|test` call
 * (projects.validateMessageTransform, projects.testMessageTransforms). They are in the discovery
 * document, not in googleapis' pubsub.proto, so they sit in the table under "Projects.*" and only
 * the REST transport routes to them (src/rest/rest-only.ts).
 */
import type { Broker } from "../core/broker.ts";
import type { ChainResult } from "../core/stages/transforms.ts";
import type { ServiceRpcs, TransformedMessage } from "./contract.ts";

function transformedToProto(r: ChainResult): TransformedMessage {
  if (r.kind === "filtered") return { filteredMessage: {} };
  if (r.kind === "failed") return { failedMessage: { error: { code: 3, message: `Message transform "${r.step}" failed: ${r.error}` } } };
  return { transformedMessage: { data: r.data, attributes: r.attributes } };
}

export function messageTransformRpcs(broker: Broker): ServiceRpcs<"Projects"> {
  return {
    ValidateMessageTransform: (req) => {
      broker.validateTransform(req.project, req.messageTransform);
      return {};
    },
    TestMessageTransforms: (req) => {
      const m = req.message ?? {};
      const results = broker.testTransforms(
        req.project,
        { data: m.data, attributes: m.attributes, orderingKey: m.orderingKey },
        { transforms: req.messageTransforms?.messageTransforms, topic: req.topic || undefined, subscription: req.subscription || undefined },
      );
      const answer = (r: ChainResult[]) => ({ transformedMessages: r.map(transformedToProto) });
      return results instanceof Promise ? results.then(answer) : answer(results);
    },
  };
}

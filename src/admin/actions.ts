/**
 * The dashboard's actions as JSON over HTTP: create and delete topics and subscriptions, publish
 * a test message, pull, ack and nack. Each is one call of the (fault-wrapped) RPC table, so it
 * follows exactly the rules a gRPC client meets.
 */
import type { DeliveryBatch } from "../core/delivery/delivery-batch.ts";
import type { MessageInput } from "../core/message.ts";
import { NO_CONTEXT, type RpcTable } from "../rpc/table.ts";
import { optionalNumber } from "./params.ts";
import { messageJson } from "../proto/message-json.ts";
import { HttpError, type Router } from "./router.ts";

const TOPIC = "/emulator/v1/projects/:project/topics/:topic";
const SUB = "/emulator/v1/projects/:project/subscriptions/:subscription";

export function actionRoutes(router: Router, table: RpcTable): void {
  const call = (method: string, req: Record<string, unknown>) => table.unary.get(method)!(req, NO_CONTEXT);
  const topic = (p: Record<string, string>) => `projects/${p.project}/topics/${p.topic}`;
  const sub = (p: Record<string, string>) => `projects/${p.project}/subscriptions/${p.subscription}`;

  router.add("POST", TOPIC, (ctx) => call("Publisher.CreateTopic", { name: topic(ctx.params) }));
  router.add("DELETE", TOPIC, async (ctx) => (await call("Publisher.DeleteTopic", { topic: topic(ctx.params) }), {}));
  router.add("POST", `${TOPIC}/publish`, async (ctx) => {
    const messages = messagesOf((await ctx.body()).messages);
    return call("Publisher.Publish", { topic: topic(ctx.params), messages });
  });
  router.add("POST", SUB, async (ctx) => {
    const b = await ctx.body();
    if (typeof b.topic !== "string") throw new HttpError(400, "topic is required: projects/{project}/topics/{topic}.");
    return call("Subscriber.CreateSubscription", {
      name: sub(ctx.params),
      topic: b.topic,
      ackDeadlineSeconds: optionalNumber(b, "ackDeadlineSeconds", 0, 600) ?? 0,
      enableMessageOrdering: b.enableMessageOrdering === true,
      filter: typeof b.filter === "string" ? b.filter : "",
    });
  });
  router.add("DELETE", SUB, async (ctx) => (await call("Subscriber.DeleteSubscription", { subscription: sub(ctx.params) }), {}));
  router.add("POST", `${SUB}/pull`, async (ctx) => {
    const maxMessages = optionalNumber(await ctx.body(), "maxMessages", 1, 1000) ?? 10;
    const batch = (await call("Subscriber.Pull", { subscription: sub(ctx.params), maxMessages, returnImmediately: true })) as DeliveryBatch;
    return {
      receivedMessages: batch.deliveries.map((d) => ({
        ackId: d.ackId,
        deliveryAttempt: d.deliveryAttempt,
        message: messageJson(d.message, { full: true, time: (ms) => new Date(ms).toISOString() }),
      })),
    };
  });
  router.add("POST", `${SUB}/acknowledge`, async (ctx) => {
    await call("Subscriber.Acknowledge", { subscription: sub(ctx.params), ackIds: ackIdsOf((await ctx.body()).ackIds) });
    return {};
  });
  router.add("POST", `${SUB}/modify-ack-deadline`, async (ctx) => {
    const b = await ctx.body();
    const ackDeadlineSeconds = optionalNumber(b, "ackDeadlineSeconds", 0, 600) ?? 0;
    await call("Subscriber.ModifyAckDeadline", { subscription: sub(ctx.params), ackIds: ackIdsOf(b.ackIds), ackDeadlineSeconds });
    return {};
  });
}

function ackIdsOf(v: unknown): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw new HttpError(400, "ackIds must be a list of strings.");
  return v;
}

/** JSON messages as the REST API writes them: data in base64, string attributes. */
function messagesOf(v: unknown): MessageInput[] {
  if (!Array.isArray(v) || v.length === 0) throw new HttpError(400, "messages must be a non-empty list.");
  return v.map((m, i) => {
    if (!m || typeof m !== "object") throw new HttpError(400, `messages[${i}] must be an object.`);
    const { data, attributes, orderingKey } = m as Record<string, unknown>;
    if (data !== undefined && typeof data !== "string") throw new HttpError(400, `messages[${i}].data must be base64 text.`);
    const attrs: Record<string, string> = Object.create(null);
    if (attributes !== undefined) {
      if (!attributes || typeof attributes !== "object" || Array.isArray(attributes)) throw new HttpError(400, `messages[${i}].attributes must be an object.`);
      for (const [k, val] of Object.entries(attributes)) {
        if (typeof val !== "string") throw new HttpError(400, `messages[${i}].attributes values must be strings.`);
        attrs[k] = val;
      }
    }
    if (orderingKey !== undefined && typeof orderingKey !== "string") throw new HttpError(400, `messages[${i}].orderingKey must be a string.`);
    return { data: data === undefined ? undefined : new Uint8Array(Buffer.from(data, "base64")), attributes: attrs, orderingKey };
  });
}

/**
 * The two RPCs whose table entries speak core shapes instead of proto-loader ones: a Publish body
 * becomes the core's PublishRequest (with the size its protobuf encoding would have, which the
 * 10,000,000-byte request limit counts), and a Pull's DeliveryBatch becomes a PullResponse in JSON.
 */
import type { DeliveryBatch } from "../core/delivery/delivery-batch.ts";
import type { MessageInput } from "../core/message.ts";
import type { PublishRequest } from "../rpc/contract.ts";
import { messageJson } from "../proto/message-json.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const varintSize = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);
/** A length-delimited field with a one-byte tag. */
const fieldSize = (n: number) => 1 + varintSize(n) + n;
const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

/** The transcoded PublishRequest (proto-loader shape) as the core's input. */
export function publishRequest(req: Obj): PublishRequest {
  const topic: string = req.topic ?? "";
  let size = topic ? fieldSize(utf8(topic)) : 0;
  const messages: MessageInput[] = [];
  for (const m of (req.messages ?? []) as Obj[]) {
    const input: MessageInput = {};
    let n = 0;
    if (m.data) {
      input.data = m.data;
      n += fieldSize(m.data.length);
    }
    if (m.attributes) {
      input.attributes = m.attributes;
      for (const k of Object.keys(m.attributes)) n += fieldSize(fieldSize(utf8(k)) + fieldSize(utf8(m.attributes[k])));
    }
    if (m.orderingKey) {
      input.orderingKey = m.orderingKey;
      n += fieldSize(utf8(m.orderingKey));
    }
    if (m.messageId) n += fieldSize(utf8(m.messageId));
    messages.push(input);
    size += fieldSize(n);
  }
  return { topic, messages, requestBytes: size };
}

/** A PullResponse as proto3 JSON: defaults (empty data, no attributes, no key) left out. */
export function pullResponseJson(batch: DeliveryBatch): Obj {
  if (!batch.deliveries.length) return {};
  const receivedMessages = batch.deliveries.map((d) => {
    const out: Obj = { ackId: d.ackId, message: messageJson(d.message) };
    if (batch.withAttempt) out.deliveryAttempt = d.deliveryAttempt;
    return out;
  });
  return { receivedMessages };
}

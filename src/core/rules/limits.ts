/** The real service's publish limits, checked with its status codes and wording. */
import { echo } from "../bounded.ts";
import { PubSubError, invalid } from "../errors.ts";
import { byteLength, type MessageInput } from "../message.ts";

export const LIMITS = {
  messagesPerPublish: 1000,
  publishRequestBytes: 10_000_000,
  messageDataBytes: 10_000_000,
  attributesPerMessage: 100,
  attributeKeyBytes: 256,
  attributeValueBytes: 1024,
  orderingKeyBytes: 1024,
  ackDeadlineMinSeconds: 10,
  ackDeadlineMaxSeconds: 600,
  ackIdsPerRequest: 2500,
  filterBytes: 256,
} as const;

const QUOTAS = "Refer to https://cloud.google.com/pubsub/quotas for more information.";

/** Validates one Publish request's messages; returns the size of each in bytes. */
export function checkPublish(messages: readonly MessageInput[], requestBytes?: number): number[] {
  const n = messages.length;
  if (n < 1) {
    throw invalid(`The value for ${n} is too small. You passed message_count in the request, but the minimum value is 1.`);
  }
  if (n > LIMITS.messagesPerPublish) {
    throw invalid(
      `The value for ${n} is too large. You passed message_count in the request, but the maximum value is ${LIMITS.messagesPerPublish}.`,
    );
  }
  const sizes = new Array<number>(n);
  let total = 0;
  let key: string | undefined;
  for (let i = 0; i < n; i++) {
    const m = messages[i];
    const size = checkMessage(m, i);
    sizes[i] = size;
    total += size;
    const k = m.orderingKey ?? "";
    if (key === undefined) key = k;
    else if (k !== key) {
      throw new PubSubError(
        "FAILED_PRECONDITION",
        "In a single publish request, all messages must have no ordering key or they must all have the same ordering key.",
      );
    }
  }
  const size = requestBytes ?? total;
  if (size > LIMITS.publishRequestBytes) {
    throw invalid(
      `The value for ${size} is too large. You passed request_size in the request, but the maximum value is ${LIMITS.publishRequestBytes}.`,
    );
  }
  return sizes;
}

/** One message's limits (data, attributes, ordering key), named as messages[index]; its size. */
export function checkMessage(m: MessageInput, index: number): number {
  const dataLen = m.data?.length ?? 0;
  const attrs = m.attributes;
  let size = dataLen;
  let count = 0;
  if (attrs) {
    for (const k in attrs) {
      count++;
      const kl = byteLength(k);
      const vl = byteLength(attrs[k]);
      if (kl > LIMITS.attributeKeyBytes) {
        throw invalid(
          `The attribute "${echo(k)}" in the request has a key that is too long. The length is ${kl} characters, but the maximum allowed is ${LIMITS.attributeKeyBytes}. ${QUOTAS}`,
        );
      }
      if (vl > LIMITS.attributeValueBytes) {
        throw invalid(
          `The attribute "${echo(k)}" in the request has a value that is too long. The length is ${vl} characters, but the maximum allowed is ${LIMITS.attributeValueBytes}. ${QUOTAS}`,
        );
      }
      if (kl === 0) throw invalid(`messages[${index}].attributes has an empty key; attribute keys must be non-empty.`);
      if (!unicode(k, kl) || !unicode(attrs[k], vl)) {
        throw invalid(`The attribute "${echo(k)}" in messages[${index}] is not valid Unicode (a lone surrogate); attributes must be UTF-8.`);
      }
      size += kl + vl;
    }
  }
  if (count > LIMITS.attributesPerMessage) {
    throw invalid(
      `messages[${index}].attributes has ${count} attributes, but the maximum allowed is ${LIMITS.attributesPerMessage}. ${QUOTAS}`,
    );
  }
  if (dataLen === 0 && count === 0) {
    throw invalid(`Some messages are empty: messages[${index}] has neither data nor attributes; a message must contain one or both.`);
  }
  if (dataLen > LIMITS.messageDataBytes) {
    throw invalid(
      `messages[${index}].data is ${dataLen} bytes, but the maximum allowed is ${LIMITS.messageDataBytes}. ${QUOTAS}`,
    );
  }
  const key = m.orderingKey;
  if (key) {
    const kl = byteLength(key);
    if (!unicode(key, kl)) throw invalid(`messages[${index}].ordering_key is not valid Unicode (a lone surrogate); it must be UTF-8.`);
    if (kl > LIMITS.orderingKeyBytes) {
      throw invalid(
        `messages[${index}].ordering_key is ${kl} bytes, but the maximum allowed is ${LIMITS.orderingKeyBytes}.`,
      );
    }
    size += kl;
  }
  return size;
}

/**
 * gRPC strings arrive checked as UTF-8; JSON ones can carry an escaped lone surrogate, which has
 * no UTF-8 form. Only a string with non-ASCII characters (more bytes than units) can.
 */
const unicode = (s: string, bytes: number) => bytes === s.length || s.isWellFormed();

/** INVALID_ARGUMENT carrying a google.rpc.BadRequest that names the field, for clients that read details. */
const invalidField = (field: string, message: string) =>
  new PubSubError("INVALID_ARGUMENT", message, [{ kind: "BadRequest", fieldViolations: [{ field, description: message }] }]);

/** Ack deadlines of ModifyAckDeadline: 0 (nack) to 600 seconds. */
export function checkModifyDeadline(seconds: number, field = "ack_deadline_seconds"): void {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > LIMITS.ackDeadlineMaxSeconds) {
    throw invalidField(
      field,
      `Invalid ${field} given: ${seconds}. The minimum allowed value is 0 and the maximum is ${LIMITS.ackDeadlineMaxSeconds} seconds.`,
    );
  }
}

/** Ack deadlines of a subscription or a stream: 10 to 600 seconds. */
export function checkAckDeadline(seconds: number, field: string): void {
  if (!Number.isInteger(seconds) || seconds < LIMITS.ackDeadlineMinSeconds || seconds > LIMITS.ackDeadlineMaxSeconds) {
    throw invalidField(
      field,
      `Invalid ${field} given: ${seconds}. The minimum allowed value is ${LIMITS.ackDeadlineMinSeconds} and the maximum is ${LIMITS.ackDeadlineMaxSeconds} seconds.`,
    );
  }
}

export function checkAckIds(ackIds: readonly string[], field = "ack_ids"): void {
  if (ackIds.length === 0) throw invalid(`The ${field} field must contain at least one ack ID.`);
  if (ackIds.length > LIMITS.ackIdsPerRequest) {
    throw invalid(`The ${field} field has ${ackIds.length} ack IDs, but the maximum allowed is ${LIMITS.ackIdsPerRequest}.`);
  }
}

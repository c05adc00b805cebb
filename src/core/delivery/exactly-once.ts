/**
 * Exactly-once delivery answers: a unary Acknowledge or ModifyAckDeadline with ack ids that match
 * no lease (unknown, expired, superseded or already used) fails with the INVALID_ARGUMENT and
 * google.rpc.ErrorInfo the official clients parse into "invalid ack id" per message.
 */
import { PubSubError } from "../errors.ts";

export const EXACTLY_ONCE_REASON = "EXACTLY_ONCE_ACKID_FAILURE";
export const INVALID_ACK_ID = "PERMANENT_FAILURE_INVALID_ACK_ID";

/**
 * The metadata travels in a gRPC trailer, and clients refuse trailers over 8 KiB: list ack ids
 * while they fit in this budget (the clients report any left out as a failed request instead).
 */
const METADATA_BUDGET = 4096;

export function exactlyOnceFailure(invalidAckIds: readonly string[]): PubSubError {
  const metadata: [string, string][] = [];
  let bytes = 0;
  for (const id of invalidAckIds) {
    bytes += id.length + INVALID_ACK_ID.length + 8;
    if (bytes > METADATA_BUDGET) break;
    metadata.push([id, INVALID_ACK_ID]);
  }
  return new PubSubError(
    "INVALID_ARGUMENT",
    "Some acknowledgement ids in the request were invalid. This could be because the acknowledgement ids have expired or the acknowledgement ids were malformed.",
    [{ kind: "ErrorInfo", reason: EXACTLY_ONCE_REASON, domain: "pubsub.googleapis.com", metadata }],
  );
}

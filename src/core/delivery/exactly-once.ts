/**
 * Exactly-once delivery answers: a unary Acknowledge or ModifyAckDeadline with ack ids that match
 * no lease (unknown, expired, superseded or already used) fails with the INVALID_ARGUMENT and
 * google.rpc.ErrorInfo the official clients parse into "invalid ack id" per message.
 */
import { PubSubError } from "../errors.ts";

export const EXACTLY_ONCE_REASON = "EXACTLY_ONCE_ACKID_FAILURE";
export const INVALID_ACK_ID = "PERMANENT_FAILURE_INVALID_ACK_ID";

/** What the clients retry: any reason starting TRANSIENT_ (the one the real service names for ordered acks). */
export const TRANSIENT_FAILURE = "TRANSIENT_FAILURE_UNORDERED_ACK_ID";

/**
 * The metadata travels in a gRPC trailer, and clients refuse trailers over 8 KiB: list ack ids
 * while they fit in this budget (the clients report any left out as a failed request instead).
 */
const METADATA_BUDGET = 4096;

const entryBytes = (id: string, reason: string) => id.length + reason.length + 8;

/** The leading ack ids whose `reason` entries fit in the metadata budget. */
export function idsWithinBudget(ackIds: readonly string[], reason: string): readonly string[] {
  let bytes = 0;
  let n = 0;
  while (n < ackIds.length && (bytes += entryBytes(ackIds[n], reason)) <= METADATA_BUDGET) n++;
  return ackIds.slice(0, n);
}

export function exactlyOnceFailure(invalidAckIds: readonly string[]): PubSubError {
  return ackIdFailures(invalidAckIds.map((id) => [id, INVALID_ACK_ID] as const));
}

/** The EXACTLY_ONCE_ACKID_FAILURE status, one metadata entry per ack id (reason as its value), within the budget. */
export function ackIdFailures(entries: ReadonlyArray<readonly [string, string]>): PubSubError {
  const metadata: [string, string][] = [];
  let bytes = 0;
  for (const [id, reason] of entries) {
    bytes += entryBytes(id, reason);
    if (bytes > METADATA_BUDGET) break;
    metadata.push([id, reason]);
  }
  return new PubSubError(
    "INVALID_ARGUMENT",
    "Some acknowledgement ids in the request were invalid. This could be because the acknowledgement ids have expired or the acknowledgement ids were malformed.",
    [{ kind: "ErrorInfo", reason: EXACTLY_ONCE_REASON, domain: "pubsub.googleapis.com", metadata }],
  );
}

/** The ack-id entries of an EXACTLY_ONCE_ACKID_FAILURE status; null for any other error. */
export function ackIdFailureEntries(e: unknown): ReadonlyArray<readonly [string, string]> | null {
  if (!(e instanceof PubSubError)) return null;
  for (const d of e.details) if (d.kind === "ErrorInfo" && d.reason === EXACTLY_ONCE_REASON) return d.metadata;
  return null;
}

/**
 * One StreamingPull stream, independent of the transport: validates the first request, applies
 * acks, modacks and flow-control changes from later ones, answers keepalive pings, and respects
 * the transport's backpressure. When the call ends, delivery stops: what the client never touched
 * goes back after a short grace, what it modacked stays leased until its deadline (acks and nacks
 * may still come, on the closing stream or by unary calls).
 */
import { STREAM_BATCH_BYTES, type Consumer } from "./consumer.ts";
import { PubSubError, invalid } from "../errors.ts";
import { checkAckDeadline, checkModifyDeadline } from "../rules/limits.ts";
import { deliveryBatch, type Confirmation, type DeliveryBatch } from "./delivery-batch.ts";
import type { Delivery } from "../message.ts";
import { pullRefusal } from "./kinds.ts";
import type { Subscription } from "../subscription/subscription.ts";
import type { Subscriptions } from "../subscription/subscriptions.ts";

/**
 * How long a stream's untouched leases outlive it: clients flush their batched receipt modacks
 * and acks by unary calls as they close (the Node client within 100 ms), so these are kept for
 * them; anything else was in flight and goes back soon, not after the stream's ack deadline.
 */
export const STREAM_END_GRACE_MS = 1000;

export interface StreamRequest {
  subscription?: string;
  ackIds?: string[];
  modifyDeadlineSeconds?: number[];
  modifyDeadlineAckIds?: string[];
  streamAckDeadlineSeconds?: number;
  clientId?: string;
  maxOutstandingMessages?: number;
  maxOutstandingBytes?: number;
  protocolVersion?: number;
}

export interface StreamSink {
  /** Writes a response (empty `deliveries` = a keepalive reply); false when backpressured. */
  send(batch: DeliveryBatch): boolean;
  /** Ends the call with an error status. */
  fail(error: PubSubError): void;
  /** Bytes it can send now without holding them (its flow-control windows, then its buffer); absent: unknown. */
  room?(): number;
}

export class StreamSession {
  private sub: Subscription;
  private consumer: Consumer;
  private closed = false;

  /** Validates the first request and starts delivering. Throws PubSubError when it is invalid. */
  constructor(subscriptions: Subscriptions, first: StreamRequest, private sink: StreamSink) {
    if (!first.subscription) {
      throw invalid("The first StreamingPullRequest must set the subscription field.");
    }
    const deadline = first.streamAckDeadlineSeconds ?? 0;
    checkAckDeadline(deadline, "stream_ack_deadline_seconds");
    checkCounts(first);
    const { sub, consumer } = subscriptions.streamConsumer(first.subscription, {
      ackDeadlineSeconds: deadline,
      maxOutstandingMessages: Math.max(0, first.maxOutstandingMessages ?? 0),
      maxOutstandingBytes: Math.max(0, first.maxOutstandingBytes ?? 0),
      deliver: (batch) => this.deliver(batch),
      close: (error) => this.end(error),
      maxBatchBytes: () => Math.min(STREAM_BATCH_BYTES.max, Math.max(STREAM_BATCH_BYTES.min, sink.room?.() ?? Infinity)),
    });
    this.sub = sub;
    this.consumer = consumer;
    this.apply(first);
    sub.addConsumer(consumer);
  }

  get subscription(): Subscription {
    return this.sub;
  }

  /** A later request on the stream. An invalid one ends the stream with its error. */
  handle(req: StreamRequest): void {
    if (this.closed) return;
    try {
      if (req.subscription && req.subscription !== this.sub.name) {
        throw invalid("subscription may only be set in the first StreamingPullRequest of a stream.");
      }
      if (req.streamAckDeadlineSeconds) {
        checkAckDeadline(req.streamAckDeadlineSeconds, "stream_ack_deadline_seconds");
        this.consumer.ackDeadlineSeconds = req.streamAckDeadlineSeconds;
      }
      this.rejectInitialOnly(req);
      checkCounts(req);
      const acted = this.apply(req);
      if (!acted && !req.streamAckDeadlineSeconds) this.send([]);
    } catch (e) {
      if (e instanceof PubSubError) this.end(e);
      else throw e;
    }
  }

  /** The transport drained: deliver again. */
  drained(): void {
    if (!this.closed) this.sub.resume(this.consumer);
  }

  /** The call ended (client half-close, cancel, disconnect): stop delivering. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.sub.removeConsumer(this.consumer);
    this.sub.shortenUnconfirmed(this.consumer, STREAM_END_GRACE_MS);
  }

  /**
   * A request that arrived as the call ended (a client nacks what it holds, then cancels): its
   * acks and modacks still count; nothing is answered.
   */
  late(req: StreamRequest): void {
    try {
      checkCounts(req);
      this.apply(req);
    } catch (e) {
      if (!(e instanceof PubSubError)) throw e;
    }
  }

  private end(error: PubSubError): void {
    if (this.closed) return;
    this.close();
    this.sink.fail(error);
  }

  private deliver(batch: Delivery[]): void {
    if (this.closed) return;
    const refusal = pullRefusal(this.sub.config);
    if (refusal) {
      // The subscription changed kind (push, an export) while this stream was open: the messages
      // go back at once, and the stream ends as a new one would.
      this.sub.modifyAckDeadline(batch.map((d) => d.ackId), 0);
      return this.end(refusal);
    }
    if (!this.send(batch)) this.consumer.ready = false;
  }

  private send(deliveries: Delivery[]): boolean {
    return this.sink.send(deliveryBatch(this.sub.config, deliveries, true));
  }

  /**
   * Applies a request's acks and modacks; on an exactly-once subscription answers them with
   * confirmations (valid and invalid ack ids). Returns whether the request did anything.
   */
  private apply(req: StreamRequest): boolean {
    const eod = this.sub.config.enableExactlyOnceDelivery;
    let ackConfirmation: Confirmation | undefined;
    let modackConfirmation: Confirmation | undefined;
    const acks = req.ackIds;
    if (acks?.length) {
      const invalidAckIds = this.sub.ack(acks);
      if (eod) ackConfirmation = confirm(acks, invalidAckIds);
    }
    const ids = req.modifyDeadlineAckIds;
    if (ids?.length) {
      const secs = req.modifyDeadlineSeconds!;
      // Group by deadline so each distinct value is one subscription call.
      const byDeadline = new Map<number, string[]>();
      for (let i = 0; i < ids.length; i++) {
        const list = byDeadline.get(secs[i]);
        if (list) list.push(ids[i]);
        else byDeadline.set(secs[i], [ids[i]]);
      }
      const invalidAckIds: string[] = [];
      for (const [s, list] of byDeadline) invalidAckIds.push(...this.sub.modifyAckDeadline(list, s));
      if (eod) modackConfirmation = confirm(ids, invalidAckIds);
    }
    if (ackConfirmation || modackConfirmation) {
      this.sink.send({ ...deliveryBatch(this.sub.config, [], true), ackConfirmation, modackConfirmation });
    }
    return !!(acks?.length || ids?.length);
  }

  /** Per the proto, flow control and protocol version belong to the first request only. */
  private rejectInitialOnly(req: StreamRequest): void {
    for (const [field, v] of [
      ["max_outstanding_messages", req.maxOutstandingMessages],
      ["max_outstanding_bytes", req.maxOutstandingBytes],
      ["protocol_version", req.protocolVersion],
    ] as const) {
      if (v) throw invalid(`${field} may only be set in the first StreamingPullRequest of a stream.`);
    }
  }
}

function confirm(ids: readonly string[], invalidAckIds: readonly string[]): Confirmation {
  if (invalidAckIds.length === 0) return { ackIds: ids, invalidAckIds };
  const bad = new Set(invalidAckIds);
  return { ackIds: ids.filter((id) => !bad.has(id)), invalidAckIds };
}

function checkCounts(req: StreamRequest): void {
  const n = req.modifyDeadlineAckIds?.length ?? 0;
  const s = req.modifyDeadlineSeconds?.length ?? 0;
  if (n !== s) {
    throw invalid(
      `modify_deadline_seconds has ${s} entries and modify_deadline_ack_ids has ${n}; they must have the same length.`,
    );
  }
  for (const secs of req.modifyDeadlineSeconds ?? []) checkModifyDeadline(secs, "modify_deadline_seconds");
}

/** A receiver of deliveries on a subscription: one StreamingPull stream or one waiting Pull. */
import type { Delivery } from "../message.ts";
import type { PubSubError } from "../errors.ts";
import { LIMITS } from "../rules/limits.ts";

const publishLimit = () => LIMITS.publishRequestBytes;

/**
 * Bytes of one StreamingPull response (one larger message still goes alone): what the transport
 * can send at once (StreamSink.room), within these bounds. A stream whose client stops reading
 * keeps its last response until it ends, long after those leases expired and the messages went
 * to other streams; with the publish limit as the only bound that was up to 10 MB a stream (an
 * official client opens five).
 */
export const STREAM_BATCH_BYTES = { min: 256 * 1024, max: 1024 * 1024 };

export interface ConsumerOptions {
  /** Lease length given to its deliveries. */
  ackDeadlineSeconds: number;
  /** Flow control: most unacked messages/bytes it holds at once; 0 = no limit. */
  maxOutstandingMessages?: number;
  maxOutstandingBytes?: number;
  /** Most messages in one delivery. */
  maxBatch: number;
  /** Most bytes of messages in one delivery (a first message may pass it), asked before each; default the publish request limit. */
  maxBatchBytes?: () => number;
  /** A unary Pull takes one delivery and leaves. */
  oneShot?: boolean;
  /** A StreamingPull stream: its untouched leases are tracked, to be shortened when it ends. */
  stream?: boolean;
  deliver(batch: Delivery[]): void;
  /** The subscription went away under it. */
  close?(error: PubSubError): void;
}

export class Consumer {
  outstanding = 0;
  outstandingBytes = 0;
  /** False while the transport is backpressured; set back with subscription.resume(). */
  ready = true;
  ackDeadlineSeconds: number;
  maxOutstandingMessages: number;
  maxOutstandingBytes: number;
  readonly maxBatch: number;
  readonly maxBatchBytes: () => number;
  readonly oneShot: boolean;
  readonly stream: boolean;
  readonly deliver: (batch: Delivery[]) => void;
  readonly close: (error: PubSubError) => void;
  /**
   * Its leases the client has not acked or modacked since delivery, newest first: when a stream
   * ends these were most likely still in flight (every official client modacks on receipt), so
   * they go back at once instead of waiting out their deadline. An intrusive list: O(1) per message.
   */
  unconfirmed: UnconfirmedLink | null = null;

  constructor(o: ConsumerOptions) {
    this.ackDeadlineSeconds = o.ackDeadlineSeconds;
    this.maxOutstandingMessages = o.maxOutstandingMessages || 0;
    this.maxOutstandingBytes = o.maxOutstandingBytes || 0;
    this.maxBatch = o.maxBatch;
    this.maxBatchBytes = o.maxBatchBytes ?? publishLimit;
    this.oneShot = !!o.oneShot;
    this.stream = !!o.stream;
    this.deliver = o.deliver;
    this.close = o.close ?? (() => {});
  }

  /** How many more messages it takes now. */
  roomMessages(): number {
    if (!this.ready) return 0;
    const byCount = this.maxOutstandingMessages ? this.maxOutstandingMessages - this.outstanding : Infinity;
    const byBytes = this.maxOutstandingBytes && this.outstandingBytes >= this.maxOutstandingBytes ? 0 : Infinity;
    return Math.max(0, Math.min(byCount, byBytes, this.maxBatch));
  }
}

/** A lease as its consumer's unconfirmed list links it (subscription/backlog.ts's Lease is one). */
export interface UnconfirmedLink {
  readonly consumer: Consumer;
  prevUnconfirmed: UnconfirmedLink | null;
  nextUnconfirmed: UnconfirmedLink | null;
}

/** Adds a new lease of a stream to its consumer's unconfirmed list. */
export function linkUnconfirmed(lease: UnconfirmedLink): void {
  const c = lease.consumer;
  lease.nextUnconfirmed = c.unconfirmed;
  if (c.unconfirmed) c.unconfirmed.prevUnconfirmed = lease;
  c.unconfirmed = lease;
}

/** The client touched the lease (ack, modack) or it ended: off the unconfirmed list. */
export function unlinkUnconfirmed(lease: UnconfirmedLink): void {
  const { prevUnconfirmed: prev, nextUnconfirmed: next } = lease;
  if (prev) prev.nextUnconfirmed = next;
  else if (lease.consumer.unconfirmed === lease) lease.consumer.unconfirmed = next;
  else return;
  if (next) next.prevUnconfirmed = prev;
  lease.prevUnconfirmed = lease.nextUnconfirmed = null;
}

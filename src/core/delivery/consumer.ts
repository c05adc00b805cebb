/** A receiver of deliveries on a subscription: one StreamingPull stream or one waiting Pull. */
import type { Delivery } from "../message.ts";
import type { PubSubError } from "../errors.ts";

export interface ConsumerOptions {
  /** Lease length given to its deliveries. */
  ackDeadlineSeconds: number;
  /** Flow control: most unacked messages/bytes it holds at once; 0 = no limit. */
  maxOutstandingMessages?: number;
  maxOutstandingBytes?: number;
  /** Most messages in one delivery. */
  maxBatch: number;
  /** A unary Pull takes one delivery and leaves. */
  oneShot?: boolean;
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
  readonly oneShot: boolean;
  readonly deliver: (batch: Delivery[]) => void;
  readonly close: (error: PubSubError) => void;

  constructor(o: ConsumerOptions) {
    this.ackDeadlineSeconds = o.ackDeadlineSeconds;
    this.maxOutstandingMessages = o.maxOutstandingMessages || 0;
    this.maxOutstandingBytes = o.maxOutstandingBytes || 0;
    this.maxBatch = o.maxBatch;
    this.oneShot = !!o.oneShot;
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

/**
 * Broker events: what happened to messages and resources, for the operator surface (metrics,
 * inspection history, the dashboard feed) and later push and exactly-once confirmations.
 *
 * Topics and subscriptions hold one optional `observer` field and emit through `observer?.x()`,
 * so with nothing attached the hot path pays a null check and nothing else. Arguments are
 * positional (no event object) so an attached observer costs no allocation either.
 */
import type { StoredMessage } from "./message.ts";

export type ResourceKind = "topic" | "subscription" | "snapshot";
export type ResourceChange = "created" | "updated" | "deleted";

export interface BrokerObserver {
  /** A message was stored on a topic (dead-lettered messages are published to their topic too). */
  published(topic: string, msg: StoredMessage): void;
  /** A message was leased to a consumer; `attempt` counts from 1, `deadline` is in clock ms. */
  delivered(subscription: string, msg: StoredMessage, ackId: string, attempt: number, deadline: number): void;
  acked(subscription: string, msg: StoredMessage, ackId: string): void;
  /** A lease ended by a nack (ModifyAckDeadline with 0 seconds). */
  nacked(subscription: string, msg: StoredMessage, ackId: string): void;
  /** A lease ran out without an ack. */
  expired(subscription: string, msg: StoredMessage, ackId: string): void;
  /** A message ran out of delivery attempts and was forwarded to `deadLetterTopic`. */
  deadLettered(subscription: string, msg: StoredMessage, deadLetterTopic: string): void;
  /** A subscription was seeked to a time (ms) or a snapshot. */
  seeked(subscription: string, target: { time?: number; snapshot?: string }): void;
  resourceChanged(kind: ResourceKind, change: ResourceChange, name: string): void;
}

/** An observer that ignores everything; extend it to listen to a few events only. */
export class NullObserver implements BrokerObserver {
  published(_topic: string, _msg: StoredMessage): void {}
  delivered(_sub: string, _msg: StoredMessage, _ackId: string, _attempt: number, _deadline: number): void {}
  acked(_sub: string, _msg: StoredMessage, _ackId: string): void {}
  nacked(_sub: string, _msg: StoredMessage, _ackId: string): void {}
  expired(_sub: string, _msg: StoredMessage, _ackId: string): void {}
  deadLettered(_sub: string, _msg: StoredMessage, _deadLetterTopic: string): void {}
  seeked(_sub: string, _target: { time?: number; snapshot?: string }): void {}
  resourceChanged(_kind: ResourceKind, _change: ResourceChange, _name: string): void {}
}

/** Several observers behind one: the broker hands topics and subscriptions a single reference. */
export class ObserverFanout implements BrokerObserver {
  constructor(private readonly list: readonly BrokerObserver[]) {}

  published(topic: string, msg: StoredMessage): void {
    for (const o of this.list) o.published(topic, msg);
  }
  delivered(sub: string, msg: StoredMessage, ackId: string, attempt: number, deadline: number): void {
    for (const o of this.list) o.delivered(sub, msg, ackId, attempt, deadline);
  }
  acked(sub: string, msg: StoredMessage, ackId: string): void {
    for (const o of this.list) o.acked(sub, msg, ackId);
  }
  nacked(sub: string, msg: StoredMessage, ackId: string): void {
    for (const o of this.list) o.nacked(sub, msg, ackId);
  }
  expired(sub: string, msg: StoredMessage, ackId: string): void {
    for (const o of this.list) o.expired(sub, msg, ackId);
  }
  deadLettered(sub: string, msg: StoredMessage, deadLetterTopic: string): void {
    for (const o of this.list) o.deadLettered(sub, msg, deadLetterTopic);
  }
  seeked(sub: string, target: { time?: number; snapshot?: string }): void {
    for (const o of this.list) o.seeked(sub, target);
  }
  resourceChanged(kind: ResourceKind, change: ResourceChange, name: string): void {
    for (const o of this.list) o.resourceChanged(kind, change, name);
  }
}

/** The observers attached to one broker; `current` is null when none is, one alone, or a fan-out. */
export class ObserverSet {
  private list: BrokerObserver[] = [];
  current: BrokerObserver | null = null;

  /** Attaches `o`; the returned function detaches it. `changed` runs after each change. */
  attach(o: BrokerObserver, changed: () => void): () => void {
    this.list = [...this.list, o];
    this.refresh();
    changed();
    return () => {
      const i = this.list.indexOf(o);
      if (i < 0) return;
      this.list = this.list.filter((x) => x !== o);
      this.refresh();
      changed();
    };
  }

  private refresh(): void {
    this.current = this.list.length === 0 ? null : this.list.length === 1 ? this.list[0] : new ObserverFanout(this.list);
  }
}

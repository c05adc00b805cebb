/**
 * Per-topic and per-subscription event counters, kept by a broker observer for /metrics and the
 * dashboard. Only live resources have counters (a deleted one's are dropped), so their number is
 * bounded by the resources themselves.
 */
import { NullObserver, type ResourceChange, type ResourceKind } from "../core/events.ts";
import type { StoredMessage } from "../core/message.ts";

export interface TopicCounters {
  published: number;
  publishedBytes: number;
}

export interface SubscriptionCounters {
  delivered: number;
  acked: number;
  nacked: number;
  expired: number;
  deadLettered: number;
}

export type Totals = TopicCounters & SubscriptionCounters;

export class Counters extends NullObserver {
  readonly topics = new Map<string, TopicCounters>();
  readonly subscriptions = new Map<string, SubscriptionCounters>();
  /** Since start, deleted resources included: what the dashboard's rate charts difference. */
  readonly totals: Totals = { published: 0, publishedBytes: 0, delivered: 0, acked: 0, nacked: 0, expired: 0, deadLettered: 0 };

  topic(name: string): TopicCounters {
    let c = this.topics.get(name);
    if (!c) this.topics.set(name, (c = { published: 0, publishedBytes: 0 }));
    return c;
  }

  subscription(name: string): SubscriptionCounters {
    let c = this.subscriptions.get(name);
    if (!c) this.subscriptions.set(name, (c = { delivered: 0, acked: 0, nacked: 0, expired: 0, deadLettered: 0 }));
    return c;
  }

  override published(topic: string, msg: StoredMessage): void {
    const c = this.topic(topic);
    c.published++;
    c.publishedBytes += msg.size;
    this.totals.published++;
    this.totals.publishedBytes += msg.size;
  }

  override delivered(sub: string): void {
    this.subscription(sub).delivered++;
    this.totals.delivered++;
  }

  override acked(sub: string): void {
    this.subscription(sub).acked++;
    this.totals.acked++;
  }

  override nacked(sub: string): void {
    this.subscription(sub).nacked++;
    this.totals.nacked++;
  }

  override expired(sub: string): void {
    this.subscription(sub).expired++;
    this.totals.expired++;
  }

  override deadLettered(sub: string): void {
    this.subscription(sub).deadLettered++;
    this.totals.deadLettered++;
  }

  override resourceChanged(kind: ResourceKind, change: ResourceChange, name: string): void {
    if (change !== "deleted") return;
    if (kind === "topic") this.topics.delete(name);
    else if (kind === "subscription") this.subscriptions.delete(name);
  }
}

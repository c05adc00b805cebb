/** One snapshot of every topic and subscription with its counters and gauges, for /metrics and the dashboard. */
import type { Broker } from "../core/broker.ts";
import type { SubscriptionView } from "../core/subscription/subscription.ts";
import type { Counters, SubscriptionCounters, TopicCounters } from "./counters.ts";

export interface TopicStats extends TopicCounters {
  name: string;
  subscriptions: number;
}

export interface SubscriptionStats extends SubscriptionCounters {
  name: string;
  topic: string;
  /** Messages not yet acked: waiting plus outstanding (Cloud Monitoring's num_undelivered_messages). */
  backlog: number;
  outstanding: number;
  /** Seconds since the oldest unacked message was published; 0 with none. */
  oldestUnackedAgeSeconds: number;
  openStreams: number;
  detached: boolean;
  /** Export subscriptions: "bigquery", "bigtable" or "cloud_storage", their state and messages written. */
  exportKind: string;
  exportState: string;
  rowsWritten: number;
  /** Cloud Storage subscriptions: objects and bytes written. */
  objectsWritten: number;
  bytesWritten: number;
}

const NO_TOPIC: TopicCounters = { published: 0, publishedBytes: 0 };
const NO_SUB: SubscriptionCounters = { delivered: 0, acked: 0, nacked: 0, expired: 0, deadLettered: 0 };

export function topicStats(broker: Broker, counters: Counters): TopicStats[] {
  const out: TopicStats[] = [];
  for (const t of broker.topicViews()) {
    out.push({ name: t.name, subscriptions: t.subscriptions, ...(counters.topics.get(t.name) ?? NO_TOPIC) });
  }
  return out;
}

export function subscriptionStats(broker: Broker, counters: Counters): SubscriptionStats[] {
  const now = broker.clock.now();
  const out: SubscriptionStats[] = [];
  for (const s of broker.subscriptionViews()) {
    const c = counters.subscriptions.get(s.name) ?? NO_SUB;
    const exp = broker.subscriptions.exportStatus(s.name);
    out.push({
      ...gauges(s, now), ...c, name: s.name, topic: s.config.topic, detached: s.config.detached,
      exportKind: exp?.kind ?? "", exportState: exp?.state ?? "", rowsWritten: exp?.rows ?? 0,
      objectsWritten: exp?.objects ?? 0, bytesWritten: exp?.bytes ?? 0,
    });
  }
  return out;
}

/** Oldest unacked: the backlog's oldest waiting entry against every lease (bounded by flow control). */
export function gauges(v: SubscriptionView, now: number) {
  let oldest = v.oldest?.msg.publishTime ?? Infinity;
  for (const lease of v.leases) if (lease.entry.msg.publishTime < oldest) oldest = lease.entry.msg.publishTime;
  let openStreams = 0;
  for (const c of v.consumers) if (!c.oneShot) openStreams++;
  return {
    backlog: v.backlogSize,
    outstanding: v.outstanding,
    oldestUnackedAgeSeconds: oldest === Infinity ? 0 : Math.max(0, now - oldest) / 1000,
    openStreams,
  };
}

/**
 * Proto-loader objects ↔ core resources: durations and timestamps become milliseconds here. The
 * other fields pass through as proto-loader shapes them (the core validates them, and keeps its
 * enums and nested settings in that shape), hence the casts between the two types.
 */
import type { SubscriptionResource, TopicResource } from "../core/resources.ts";
import type { SnapshotResource } from "../core/topic/snapshots.ts";
import type { Topic, Topic__Output } from "../../protos/types/google/pubsub/v1/Topic";
import type { Subscription, Subscription__Output } from "../../protos/types/google/pubsub/v1/Subscription";
import type { Snapshot, Snapshot__Output } from "../../protos/types/google/pubsub/v1/Snapshot";

export interface Duration {
  seconds?: number | string;
  nanos?: number;
}

export const durationToMs = (d: Duration | null | undefined): number | undefined =>
  d ? Number(d.seconds ?? 0) * 1000 + Math.round((d.nanos ?? 0) / 1e6) : undefined;

export const msToDuration = (ms: number | undefined): Duration | undefined =>
  ms === undefined ? undefined : { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };

export interface Timestamp {
  seconds?: number | string;
  nanos?: number;
}

/**
 * Publish times are whole milliseconds, so "published before T" is "before T rounded up to the
 * millisecond": a sub-millisecond T keeps the real service's before/at-or-after split.
 */
export const timestampToMs = (t: Timestamp | null | undefined): number | undefined =>
  t ? Number(t.seconds ?? 0) * 1000 + Math.ceil((t.nanos ?? 0) / 1e6) : undefined;

export const msToTimestamp = (ms: number): Timestamp => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });

/** Drops unset (null/undefined) fields so the core sees presence as the client sent it. */
function compact<T extends object>(o: T | null | undefined): Partial<T> {
  const out: Record<string, unknown> = {};
  if (!o) return out as Partial<T>;
  // Own keys only: a for..in would also walk whatever a prototype carries.
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out as Partial<T>;
}

export function topicFromProto(p: Topic__Output | null | undefined): TopicResource {
  const t = compact(p);
  return { ...t, name: t.name ?? "", labels: t.labels ?? {}, messageRetentionDuration: durationToMs(t.messageRetentionDuration) } as TopicResource;
}

export function topicToProto(t: TopicResource): Topic {
  return { ...t, messageRetentionDuration: msToDuration(t.messageRetentionDuration) } as Topic;
}

export function subscriptionFromProto(p: Subscription__Output | null | undefined): SubscriptionResource {
  const s = compact(p);
  const out: Record<string, unknown> = { ...s, name: s.name ?? "", topic: s.topic ?? "", labels: s.labels ?? {} };
  out.messageRetentionDuration = durationToMs(s.messageRetentionDuration);
  if (s.expirationPolicy) out.expirationPolicy = { ttl: durationToMs(s.expirationPolicy.ttl) };
  if (s.retryPolicy) {
    out.retryPolicy = {
      minimumBackoff: durationToMs(s.retryPolicy.minimumBackoff),
      maximumBackoff: durationToMs(s.retryPolicy.maximumBackoff),
    };
  }
  delete out.topicMessageRetentionDuration;
  return out as unknown as SubscriptionResource;
}

/** The real service answers a subscription without push delivery with an empty PushConfig, never none. */
const NO_PUSH = Object.freeze({});

export function subscriptionToProto(s: SubscriptionResource): Subscription {
  const out: Record<string, unknown> = { ...s };
  out.pushConfig = s.pushConfig ?? NO_PUSH;
  out.messageRetentionDuration = msToDuration(s.messageRetentionDuration);
  out.topicMessageRetentionDuration = msToDuration(s.topicMessageRetentionDuration);
  if (s.expirationPolicy) out.expirationPolicy = { ttl: msToDuration(s.expirationPolicy.ttl) };
  if (s.retryPolicy) {
    out.retryPolicy = {
      minimumBackoff: msToDuration(s.retryPolicy.minimumBackoff),
      maximumBackoff: msToDuration(s.retryPolicy.maximumBackoff),
    };
  }
  return out as Subscription;
}

export function snapshotToProto(s: SnapshotResource): Snapshot {
  return { name: s.name, topic: s.topic, expireTime: msToTimestamp(s.expireTime), labels: s.labels };
}

export function snapshotFromProto(p: Snapshot__Output | null | undefined): SnapshotResource {
  const s = compact(p);
  return { name: s.name ?? "", topic: s.topic ?? "", labels: s.labels ?? {}, expireTime: timestampToMs(s.expireTime) ?? NaN };
}

/** Proto-loader objects ↔ core resources: durations and timestamps become milliseconds here. */
import type { SubscriptionResource, TopicResource } from "../core/resources.ts";
import type { SnapshotResource } from "../core/topic/snapshots.ts";

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

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Drops unset (null/undefined) fields so the core sees presence as the client sent it. */
function compact(o: Obj | null | undefined): Obj {
  const out: Obj = {};
  if (!o) return out;
  // Own keys only: a for..in would also walk whatever a prototype carries.
  for (const k of Object.keys(o)) if (o[k] !== null && o[k] !== undefined) out[k] = o[k];
  return out;
}

export function topicFromProto(p: Obj | null | undefined): TopicResource {
  const t = compact(p);
  return { ...t, name: t.name ?? "", labels: t.labels ?? {}, messageRetentionDuration: durationToMs(t.messageRetentionDuration) } as TopicResource;
}

export function topicToProto(t: TopicResource): Obj {
  return { ...t, messageRetentionDuration: msToDuration(t.messageRetentionDuration) };
}

export function subscriptionFromProto(p: Obj | null | undefined): SubscriptionResource {
  const s = compact(p);
  const out: Obj = { ...s, name: s.name ?? "", topic: s.topic ?? "", labels: s.labels ?? {} };
  out.messageRetentionDuration = durationToMs(s.messageRetentionDuration);
  if (s.expirationPolicy) out.expirationPolicy = { ttl: durationToMs(s.expirationPolicy.ttl) };
  if (s.retryPolicy) {
    out.retryPolicy = {
      minimumBackoff: durationToMs(s.retryPolicy.minimumBackoff),
      maximumBackoff: durationToMs(s.retryPolicy.maximumBackoff),
    };
  }
  delete out.topicMessageRetentionDuration;
  return out as SubscriptionResource;
}

/** The real service answers a subscription without push delivery with an empty PushConfig, never none. */
const NO_PUSH = Object.freeze({});

export function subscriptionToProto(s: SubscriptionResource): Obj {
  const out: Obj = { ...s };
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
  return out;
}

export function snapshotToProto(s: SnapshotResource): Obj {
  return { name: s.name, topic: s.topic, expireTime: msToTimestamp(s.expireTime), labels: s.labels };
}

export function snapshotFromProto(p: Obj | null | undefined): SnapshotResource {
  const s = compact(p);
  return { name: s.name ?? "", topic: s.topic ?? "", labels: s.labels ?? {}, expireTime: timestampToMs(s.expireTime) ?? NaN };
}

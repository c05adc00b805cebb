/**
 * Seek: resets which messages a subscription has acked, to a time or to a snapshot, within what
 * is still kept (its own entries, retain_acked_messages, and its topic's log).
 */
import { failedPrecondition } from "../errors.ts";
import type { StoredMessage } from "../message.ts";
import type { SnapshotRecord } from "../store/store.ts";
import type { Subscription } from "../subscription/subscription.ts";
import type { Topic } from "./topic.ts";

function* where(msgs: Iterable<StoredMessage>, keep: (m: StoredMessage) => boolean): Iterable<StoredMessage> {
  for (const m of msgs) if (keep(m)) yield m;
}

/**
 * Messages published before `time` become acked, the others unacked. Besides its own entries the
 * subscription gets back what its topic's log still has of what it was sent (published since it
 * was created) and, with topic retention, anything within it — even from before it existed.
 */
export function seekToTime(sub: Subscription, time: number, now: number): void {
  const topic = sub.topic;
  const retention = topic?.config.messageRetentionDuration;
  const restore = topic
    ? where(topic.logged(), (m) => m.seq >= sub.createdSeq || (retention !== undefined && m.publishTime + retention > now))
    : [];
  sub.resetTo((m) => m.publishTime >= time, restore);
}

/** The snapshot's messages (its backlog, and everything its topic got since) become unacked, the rest acked. */
export function seekToSnapshot(sub: Subscription, snapshot: SnapshotRecord, snapshotTopic: Topic | null): void {
  if (!sub.topic || snapshotTopic !== sub.topic) {
    throw failedPrecondition(
      `The snapshot ${snapshot.name} was taken on topic ${snapshot.topic}, not on the topic of subscription ${sub.name} (${sub.config.topic}).`,
    );
  }
  const from = snapshot.fromSeq;
  const backlog = new Set(snapshot.backlog.map((m) => m.seq));
  const tail = where(sub.topic.logged(), (m) => m.seq >= from);
  sub.resetTo((m) => m.seq >= from || backlog.has(m.seq), [...snapshot.backlog, ...tail]);
}

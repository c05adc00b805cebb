/**
 * Snapshots: a subscription's unacked messages at one moment plus every later message of its
 * topic, kept until the snapshot expires (one timer for all, in a deadline heap) or is deleted.
 */
import type { Clock } from "../clock.ts";
import { alreadyExists, failedPrecondition, invalid, notFound } from "../errors.ts";
import { applyMask, type MaskRules } from "../rules/field-mask.ts";
import type { BrokerObserver } from "../events.ts";
import type { HeapEntry } from "../heap.ts";
import { DELETED_TOPIC, parseName, parseProject } from "../rules/names.ts";
import { paginate, type Page } from "../rules/paging.ts";
import { checkLabels } from "../rules/resource-rules.ts";
import { DAY, MINUTE } from "../resources.ts";
import type { SnapshotRecord, Store } from "../store/store.ts";
import type { Subscription } from "../subscription/subscription.ts";
import { TimedHeap } from "../timed-heap.ts";
import { PROJECT_QUOTAS, ProjectMap } from "../rules/quotas.ts";
import { checkTags } from "../rules/resource-fields.ts";
import type { Topic } from "./topic.ts";

/** A snapshot as clients see it. */
export interface SnapshotResource {
  name: string;
  topic: string;
  /** ms since the epoch */
  expireTime: number;
  labels: Record<string, string>;
}

/** Per the proto: 7 days minus the age of the oldest unacked message; refused under 1 hour. */
export const SNAPSHOT_LIFETIME = 7 * DAY;
const MIN_LIFETIME = 60 * MINUTE;

const SNAPSHOT_MASK: MaskRules = {
  kind: "Snapshot",
  mutable: new Set(["labels", "expire_time"]),
  immutable: new Set(["name", "topic"]),
};

interface Live extends HeapEntry {
  record: SnapshotRecord;
  /** The topic object it was taken on: a re-created topic of the same name is another topic. */
  topic: Topic | null;
  /** Its expiry at creation: an update may bring it closer, not push it further. */
  readonly maxExpireTime: number;
}

/** How many expired names are remembered, so a Seek to one says "expired" rather than "not found". */
const EXPIRED_NAMES = 10_000;

export class Snapshots {
  private byName = new ProjectMap<Live>();
  private expiry: TimedHeap<Live>;
  private expired = new Set<string>();

  constructor(
    private store: Store,
    private clock: Clock,
    /** Broker events: snapshots are created, updated (labels, expiry, their topic deleted) and deleted. */
    private events: () => BrokerObserver | null = () => null,
    private maxPerProject = PROJECT_QUOTAS.snapshots,
  ) {
    this.expiry = new TimedHeap<Live>(clock, (s) => this.expire(s.record.name));
  }

  get size(): number {
    return this.byName.size;
  }

  /** CreateSnapshot; an empty name gets a generated one in the subscription's project. */
  create(name: string, sub: Subscription, labels: Record<string, string> | undefined, tags?: Record<string, string>): SnapshotResource {
    const { project } = parseName(sub.name, "subscriptions", "subscription");
    if (!name) name = `projects/${project}/snapshots/snapshot-${crypto.randomUUID()}`;
    parseName(name, "snapshots");
    checkTags(tags, name);
    if (this.byName.has(name)) throw alreadyExists(name);
    const topic = sub.topic;
    if (!topic) throw failedPrecondition(`The topic of subscription ${sub.name} was deleted; there is nothing to snapshot.`);
    this.byName.admit(name, "snapshots", this.maxPerProject);
    const now = this.clock.now();
    const backlog = sub.unacked();
    const expireTime = (backlog[0]?.publishTime ?? now) + SNAPSHOT_LIFETIME;
    if (expireTime - now < MIN_LIFETIME) {
      throw failedPrecondition(
        `The subscription's backlog is too old to snapshot: its oldest unacked message would make the snapshot expire in less than 1 hour (snapshot=${name}).`,
      );
    }
    const record: SnapshotRecord = { name, topic: topic.name, expireTime, labels: checkLabels(labels), fromSeq: this.store.nextSeq, backlog };
    const live: Live = { record, topic, maxExpireTime: expireTime, key: expireTime, heapIndex: -1 };
    this.store.putSnapshot(record);
    this.byName.set(name, live);
    this.expired.delete(name);
    topic.snapshotTaken(record.fromSeq);
    this.expiry.add(live, expireTime);
    this.events()?.resourceChanged("snapshot", "created", record.name);
    return toResource(record);
  }

  /** Registers a snapshot a store kept from an earlier run (its holds are already in the store). */
  restore(record: SnapshotRecord, topic: Topic | null): void {
    const first = record.backlog[0];
    const maxExpireTime = first ? first.publishTime + SNAPSHOT_LIFETIME : record.expireTime;
    const live: Live = { record, topic, maxExpireTime, key: record.expireTime, heapIndex: -1 };
    this.byName.set(record.name, live);
    topic?.snapshotTaken(record.fromSeq);
    this.expiry.add(live, record.expireTime);
  }

  /** A live snapshot, or NOT_FOUND (INVALID_ARGUMENT for a malformed name). */
  get(name: string, field = "snapshot"): Live {
    const s = this.byName.get(name);
    if (s && s.record.expireTime > this.clock.now()) return s;
    parseName(name, "snapshots", field);
    throw notFound(name);
  }

  /** The snapshot a Seek names: FAILED_PRECONDITION once it has expired. */
  forSeek(name: string): Live {
    if (this.expired.has(name)) throw failedPrecondition(`The snapshot ${name} has expired.`);
    const s = this.byName.get(name);
    if (s && s.record.expireTime <= this.clock.now()) throw failedPrecondition(`The snapshot ${name} has expired.`);
    return this.get(name);
  }

  resource(name: string): SnapshotResource {
    return toResource(this.get(name).record);
  }

  list(project: string, pageSize?: number, pageToken?: string): Page<SnapshotResource> {
    const prefix = `projects/${parseProject(project)}/snapshots/`;
    const all = [...this.byName.values()].filter((s) => s.record.name.startsWith(prefix)).map((s) => toResource(s.record));
    return paginate(all, (s) => s.name, pageSize, pageToken);
  }

  listForTopic(topic: Topic, pageSize?: number, pageToken?: string): Page<string> {
    const names = [...this.byName.values()].filter((s) => s.topic === topic).map((s) => s.record.name);
    return paginate(names, (n) => n, pageSize, pageToken);
  }

  /** UpdateSnapshot: labels and expire_time (which may only move within the snapshot's lifetime). */
  update(input: SnapshotResource, paths: readonly string[]): SnapshotResource {
    const live = this.get(input.name, "snapshot.name");
    const r = live.record;
    const next = applyMask(toResource(r), input, paths, SNAPSHOT_MASK);
    const labels = checkLabels(next.labels);
    const now = this.clock.now();
    const limit = live.maxExpireTime;
    if (paths.includes("expire_time")) {
      const t = next.expireTime;
      if (!Number.isFinite(t) || t <= now || t > limit) {
        throw invalid(
          `Invalid expire_time: it must be in the future and no later than ${new Date(limit).toISOString()} (the snapshot's lifetime).`,
        );
      }
    }
    r.labels = labels;
    r.expireTime = next.expireTime;
    this.store.putSnapshot(r);
    this.expiry.reschedule(live, r.expireTime);
    this.events()?.resourceChanged("snapshot", "updated", r.name);
    return toResource(r);
  }

  delete(name: string): void {
    const live = this.byName.get(name);
    if (!live) {
      parseName(name, "snapshots", "snapshot");
      throw notFound(name);
    }
    this.byName.delete(name);
    this.expiry.remove(live);
    this.store.deleteSnapshot(name);
    live.topic?.snapshotGone(live.record.fromSeq);
    this.events()?.resourceChanged("snapshot", "deleted", name);
  }

  private expire(name: string): void {
    this.delete(name);
    this.expired.add(name);
    if (this.expired.size > EXPIRED_NAMES) this.expired.delete(this.expired.values().next().value!);
  }

  /** The topic is deleted: its snapshots stay (until they expire) but name no topic. */
  topicDeleted(topic: Topic): void {
    for (const s of this.byName.values()) {
      if (s.topic !== topic) continue;
      s.topic = null;
      s.record.topic = DELETED_TOPIC;
      this.store.putSnapshot(s.record);
      this.events()?.resourceChanged("snapshot", "updated", s.record.name);
    }
  }

  /** Drops every snapshot whose name starts with `prefix` ("" = all: reset). */
  clear(prefix = ""): void {
    for (const name of [...this.byName.keys()]) if (name.startsWith(prefix)) this.delete(name);
    if (!prefix) this.expired.clear();
  }
}

function toResource(r: SnapshotRecord): SnapshotResource {
  return { name: r.name, topic: r.topic, expireTime: r.expireTime, labels: { ...r.labels } };
}

/**
 * Reads what an earlier run left in the data dir into the objects the core restores from: the
 * resource records, every kept message (once, shared by its holders), each subscription's
 * entries in publish order, the snapshots, each topic's log, the schemas and the IAM policies.
 */
import type { Database } from "bun:sqlite";
import type { SubscriptionResource, TopicResource } from "../core/resources.ts";
import { HeldMessage } from "../core/store/memory-store.ts";
import { log } from "../runtime/log.ts";
import type { Bodies } from "./bodies.ts";
import type { EntryState, PolicyRecord, SchemaRecord, SnapshotRecord, StoreContents } from "../core/store/store.ts";

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

export interface Loaded {
  contents: StoreContents;
  /** Internal row ids of the live records, by name. */
  topicIds: Map<string, number>;
  subIds: Map<string, number>;
  /** Each topic's log, oldest first. */
  logs: Map<string, HeldMessage[]>;
  /** Every stored message by seq (the store counts its holders after loading). */
  messages: Map<number, HeldMessage>;
  /** Rows left out because what they point at is gone or damaged (0 unless a file was edited or lost). */
  dangling: number;
  /** Message rows per body segment. */
  live: Map<number, number>;
  /** Rows whose body is damaged (left out; to be deleted), with their segment. */
  damaged: { seq: number; body: number }[];
  nextSeq: number;
  epoch: number;
}

type Row = unknown[];

export function load(db: Database, bodies: Bodies): Loaded {
  const topicIds = new Map<string, number>();
  const topicById = new Map<number, string>();
  const topics: TopicResource[] = [];
  for (const [id, name, config] of db.query("SELECT id, name, config FROM topics ORDER BY id").values() as Row[]) {
    topicIds.set(name as string, id as number);
    topicById.set(id as number, name as string);
    topics.push(JSON.parse(config as string));
  }

  const messages = new Map<number, HeldMessage>();
  const logs = new Map<string, HeldMessage[]>();
  let dangling = 0;
  let lastSeq = 0;
  const rows = db.query("SELECT seq, data, attributes, ordering_key, publish_time, size, log_topic, body, body_at FROM messages ORDER BY seq").values() as Row[];
  const { live, damaged } = readBodies(rows, bodies);
  for (const [seq, data, attrs, key, time, size, logTopic, body] of rows) {
    lastSeq = seq as number;
    if (data === null) continue; // its body is damaged
    const attributes = attrs === null ? NO_ATTRIBUTES : JSON.parse(attrs as string);
    const m = new HeldMessage(seq as number, data as Uint8Array, attributes, key as string, time as number, size as number);
    if (body !== null) m.body = body as number;
    messages.set(m.seq, m);
    if (logTopic === null) continue;
    const topic = topicById.get(logTopic as number);
    if (topic === undefined) continue;
    let q = logs.get(topic);
    if (!q) logs.set(topic, (q = []));
    q.push(m);
  }
  dangling += damaged.length;

  const subIds = new Map<string, number>();
  const subscriptions: StoreContents["subscriptions"] = [];
  const byId = new Map<number, EntryState[]>();
  for (const [id, name, config, createdSeq] of db.query("SELECT id, name, config, created_seq FROM subscriptions ORDER BY id").values() as Row[]) {
    subIds.set(name as string, id as number);
    const entries: EntryState[] = [];
    byId.set(id as number, entries);
    subscriptions.push({ config: JSON.parse(config as string) as SubscriptionResource, entries, createdSeq: createdSeq as number });
  }
  // The primary key's order: by subscription, then publish order.
  for (const [sub, seq, attempts, acked] of db.query("SELECT sub, seq, attempts, acked FROM entries").values() as Row[]) {
    const msg = messages.get(seq as number);
    const entries = byId.get(sub as number);
    if (!msg || !entries) dangling++;
    else entries.push({ msg, attempts: attempts as number, acked: acked === 1 });
  }

  const snapshots: SnapshotRecord[] = [];
  for (const [name, topic, expireTime, labels, fromSeq, backlog] of db.query("SELECT name, topic, expire_time, labels, from_seq, backlog FROM snapshots").values() as Row[]) {
    const seqs = new Float64Array((backlog as Uint8Array).slice().buffer);
    const msgs: HeldMessage[] = [];
    for (const seq of seqs) {
      const m = messages.get(seq);
      if (m) msgs.push(m);
      else dangling++;
    }
    snapshots.push({ name: name as string, topic: topic as string, expireTime: expireTime as number, labels: JSON.parse(labels as string), fromSeq: fromSeq as number, backlog: msgs });
  }

  const schemas: SchemaRecord[] = [];
  for (const [name, revisions] of db.query("SELECT name, revisions FROM schemas").values() as Row[]) {
    schemas.push({ name: name as string, revisions: JSON.parse(revisions as string) });
  }
  const policies: PolicyRecord[] = [];
  for (const [resource, policy, etag] of db.query("SELECT resource, policy, etag FROM policies").values() as Row[]) {
    policies.push({ resource: resource as string, policy: { ...JSON.parse(policy as string), etag: etag as Uint8Array } });
  }

  const meta = new Map(db.query("SELECT key, value FROM meta").values() as [string, number][]);
  return {
    contents: { topics, subscriptions, snapshots, schemas, policies },
    topicIds,
    subIds,
    logs,
    messages,
    dangling,
    live,
    damaged,
    nextSeq: Math.max(meta.get("next_seq") ?? 1, lastSeq + 1),
    epoch: meta.get("epoch") ?? 0,
  };
}

/** A snapshot's backlog as stored: the seqs as float64s. */
export function packSeqs(msgs: readonly { seq: number }[]): Uint8Array {
  const out = new Float64Array(msgs.length);
  for (let i = 0; i < msgs.length; i++) out[i] = msgs[i].seq;
  return new Uint8Array(out.buffer);
}

/**
 * Fills in the data of rows whose body is in a segment file (row[1], the data, replaced; null when
 * the body is missing, cut short or fails its checksum: that message is left out, never half-read).
 */
function readBodies(rows: Row[], bodies: Bodies): { live: Map<number, number>; damaged: Loaded["damaged"] } {
  const bySeg = new Map<number, Row[]>();
  for (const r of rows) {
    if (r[7] === null) continue;
    let list = bySeg.get(r[7] as number);
    if (!list) bySeg.set(r[7] as number, (list = []));
    list.push(r);
  }
  const live = new Map<number, number>();
  const damaged: Loaded["damaged"] = [];
  for (const [seg, list] of bySeg) {
    live.set(seg, list.length);
    const data = bodies.readSegment(seg, list.map((r) => r[8] as number));
    for (let i = 0; i < list.length; i++) {
      list[i][1] = data[i];
      if (data[i] === null) damaged.push({ seq: list[i][0] as number, body: seg });
    }
  }
  if (damaged.length) log.warn(`${damaged.length} stored messages were left out: their bodies in ${bodies.dir} are missing or damaged`);
  return { live, damaged };
}

/**
 * Read-only inspection: a subscription's state, its leases with delivery counts and deadlines,
 * a peek at waiting messages (nothing is leased), a topic's subscriptions, a message's history.
 */
import type { ImportStatusSource } from "../ingest/topic-imports.ts";
import type { Broker } from "../core/broker.ts";
import type { Entry } from "../core/subscription/backlog.ts";
import type { Counters } from "./counters.ts";
import { MAX_CAPACITY, type MessageHistory } from "./history.ts";
import { optionalNumber, queryInt } from "./params.ts";
import { HttpError, type Router } from "./router.ts";
import { messageJson } from "../proto/message-json.ts";
import { gauges } from "./stats.ts";

/** Peeked data is cut here so a page of 10 MB messages stays small; `size` tells the whole. */
const PEEK_DATA_BYTES = 64 * 1024;
const iso = (ms: number) => new Date(ms).toISOString();

export interface InspectDeps {
  broker: Broker;
  counters: Counters;
  history: MessageHistory;
  imports?: ImportStatusSource;
}

function messageView(e: Entry) {
  const m = e.msg;
  const data = m.data.length > PEEK_DATA_BYTES ? m.data.subarray(0, PEEK_DATA_BYTES) : m.data;
  return {
    ...messageJson(m, { full: true, time: iso, data }),
    ...(data !== m.data && { dataTruncated: true }),
    size: m.size,
    deliveryAttempts: e.attempts,
  };
}

export function subscriptionSummary(deps: InspectDeps, name: string) {
  const sub = deps.broker.subscriptionView(name);
  const c = sub.config;
  return {
    name,
    topic: c.topic,
    ackDeadlineSeconds: c.ackDeadlineSeconds,
    enableMessageOrdering: c.enableMessageOrdering,
    filter: c.filter,
    deadLetterPolicy: c.deadLetterPolicy ?? null,
    detached: c.detached,
    ...gauges(sub, deps.broker.clock.now()),
    ...deps.counters.subscriptions.get(name),
    messageTransforms: sub.transform?.summary() ?? null,
    // BigQuery, Bigtable, Cloud Storage: state and what was written; Cloud Storage also its open batch.
    export: deps.broker.subscriptions.exportStatus(name),
  };
}

export function leases(broker: Broker, name: string, limit: number) {
  const now = broker.clock.now();
  const out = [];
  for (const l of broker.subscriptionView(name).leases) {
    if (out.length >= limit) break;
    out.push({
      ackId: l.ackId,
      messageId: l.entry.msg.id,
      deliveryAttempt: l.entry.attempts,
      deadline: iso(l.deadline),
      secondsLeft: Math.max(0, l.deadline - now) / 1000,
      orderingKey: l.entry.msg.orderingKey,
      publishTime: iso(l.entry.msg.publishTime),
      consumer: l.consumer.oneShot ? "pull" : "stream",
    });
  }
  return out;
}

export function peek(broker: Broker, name: string, limit: number) {
  const out = [];
  for (const e of broker.subscriptionView(name).waiting) {
    if (out.length >= limit) break;
    out.push(messageView(e));
  }
  return out;
}

/** How many leases and waiting messages one answer lists unless asked, and at most. */
export const LEASES_LIMIT = { fallback: 100, max: 10_000 };
export const PEEK_LIMIT = { fallback: 10, max: 1000 };

export function leasesOf(broker: Broker, name: string, limit: number) {
  return { outstanding: broker.subscriptionView(name).outstanding, leases: leases(broker, name, limit) };
}

export function waitingOf(broker: Broker, name: string, limit: number) {
  const s = broker.subscriptionView(name);
  return { waiting: s.backlogSize - s.outstanding, messages: peek(broker, name, limit) };
}

export function topicSummary(deps: InspectDeps, name: string) {
  const { broker } = deps;
  const topic = broker.topics.get(name);
  const subs = broker.topics.listSubscriptions(name, 1000).items;
  return {
    name: topic.name, subscriptions: subs, ...deps.counters.topics.get(name), messageTransforms: broker.transformsOf(name)?.summary() ?? null,
    ingestion: deps.imports?.status(name) ?? null,
  };
}

export function messageRecord(deps: InspectDeps, id: string) {
  const record = deps.history.get(id);
  if (record) return record;
  const hint = deps.history.capacity
    ? `it is not among the last ${deps.history.capacity} messages recorded (or was published while history was off)`
    : "message history is off (POST /emulator/v1/history)";
  throw new HttpError(404, `No history for message ${id.slice(0, 40)}: ${hint}.`);
}

export function inspectRoutes(router: Router, deps: InspectDeps): void {
  const { broker } = deps;
  const sub = (p: Record<string, string>) => `projects/${p.project}/subscriptions/${p.subscription}`;
  const SUB = "/emulator/v1/projects/:project/subscriptions/:subscription";
  router.add("GET", SUB, (ctx) => subscriptionSummary(deps, sub(ctx.params)));
  router.add("GET", `${SUB}/leases`, (ctx) => leasesOf(broker, sub(ctx.params), queryInt(ctx.url, "limit", LEASES_LIMIT.fallback, 1, LEASES_LIMIT.max)));
  router.add("GET", `${SUB}/messages`, (ctx) => waitingOf(broker, sub(ctx.params), queryInt(ctx.url, "limit", PEEK_LIMIT.fallback, 1, PEEK_LIMIT.max)));
  router.add("GET", "/emulator/v1/projects/:project/topics/:topic", (ctx) => topicSummary(deps, `projects/${ctx.params.project}/topics/${ctx.params.topic}`));
  router.add("GET", "/emulator/v1/messages/:id", (ctx) => messageRecord(deps, ctx.params.id));
  const historyState = () => ({ capacity: deps.history.capacity, messages: deps.history.size });
  router.add("GET", "/emulator/v1/history", historyState);
  router.add("POST", "/emulator/v1/history", async (ctx) => {
    const capacity = optionalNumber(await ctx.body(), "capacity", 0, MAX_CAPACITY);
    if (capacity === undefined) throw new HttpError(400, 'capacity is required, e.g. {"capacity": 10000} (0 turns history off).');
    deps.history.configure(capacity);
    return historyState();
  });
}

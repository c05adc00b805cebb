/**
 * GET /metrics: Prometheus text format (per-topic and per-subscription counters and gauges,
 * process memory, the memory budget when one is set). A client asking for JSON (the bench) and
 * GET /metrics.json get the process and broker summary as JSON.
 */
import type { ImportStatus, ImportStatusSource } from "../ingest/topic-imports.ts";
import type { IncomingMessage } from "node:http";
import type { Broker } from "../core/broker.ts";
import { internalErrorCount } from "../runtime/internal-errors.ts";
import type { Counters } from "./counters.ts";
import type { Router } from "./router.ts";
import { subscriptionStats, topicStats, type SubscriptionStats, type TopicStats } from "./stats.ts";

/** Resources labelled one by one; beyond this the rest are summed under the label value "_other". */
export const MAX_LABELLED = 5000;
export const OTHER = "_other";

/** The memory budget's state (--max-memory): held message bytes against their limit, refusals. */
export type MemoryBudgetProbe = () => { limitBytes: number; usedBytes: number; heldLimitBytes: number; publishesRefused: number } | null;

/** The --data-dir's disk fault in force (src/persistence/disk-faults.ts), null while writes go through. */
export type DiskFaultProbe = () => { code: string; message: string; refused: number } | null;

export interface MetricsDeps {
  broker: Broker;
  counters: Counters;
  memoryBudget?: MemoryBudgetProbe;
  imports?: ImportStatusSource;
  /** Set with --data-dir. */
  diskFault?: DiskFaultProbe;
}

const started = Date.now();

/** The JSON summary the bench samples (keep these field names). */
export function metricsJson(deps: MetricsDeps) {
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    rssBytes: mem.rss,
    heapUsedBytes: mem.heapUsed,
    heapTotalBytes: mem.heapTotal,
    cpuUserMicros: cpu.user,
    cpuSystemMicros: cpu.system,
    uptimeSeconds: (Date.now() - started) / 1000,
    bunVersion: process.versions.bun ?? null,
    memoryBudget: deps.memoryBudget?.() ?? null,
    dataDirFault: deps.diskFault?.() ?? null,
    internalErrors: internalErrorCount(),
    ...deps.broker.stats(),
  };
}

export function metricsRoutes(router: Router, deps: MetricsDeps): void {
  router.add("GET", "/metrics.json", () => metricsJson(deps));
  router.add("GET", "/metrics", (ctx) => {
    if (wantsJson(ctx.req)) return metricsJson(deps);
    const text = prometheus(deps);
    ctx.res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8", "content-length": Buffer.byteLength(text) });
    ctx.res.end(text);
  });
}

function wantsJson(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? "";
  return accept.includes("application/json") && !accept.includes("text/plain") && !accept.includes("openmetrics");
}

/** Escapes a label value per the text format: backslash, double quote and newline. */
export function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** "projects/p/topics/t" → ["p", "t"]; anything else (the deleted-topic marker) keeps its text. */
function split(name: string): [string, string] {
  const parts = name.split("/");
  return parts.length === 4 ? [parts[1], parts[3]] : ["", name];
}

class Writer {
  lines: string[] = [];
  family(name: string, type: "counter" | "gauge", help: string): void {
    this.lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  }
  sample(name: string, labels: Record<string, string>, value: number): void {
    const l = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",");
    this.lines.push(`${name}${l ? `{${l}}` : ""} ${Number.isFinite(value) ? value : 0}`);
  }
}

export function prometheus(deps: MetricsDeps): string {
  const w = new Writer();
  const topics = capTopics(topicStats(deps.broker, deps.counters));
  const subs = capSubscriptions(subscriptionStats(deps.broker, deps.counters));
  const topicLabels = (t: TopicStats) => {
    const [project, topic] = t.name === OTHER ? ["", OTHER] : split(t.name);
    return { project, topic };
  };
  const subLabels = (s: SubscriptionStats) => {
    const [project, subscription] = s.name === OTHER ? ["", OTHER] : split(s.name);
    return { project, subscription, topic: s.topic === OTHER ? OTHER : split(s.topic)[1] };
  };
  const P = "pubsub_emulator_";
  const topicFamilies: [string, "counter" | "gauge", string, (t: TopicStats) => number][] = [
    ["published_messages_total", "counter", "Messages published to the topic.", (t) => t.published],
    ["published_bytes_total", "counter", "Bytes published to the topic (data, attributes, ordering key).", (t) => t.publishedBytes],
    ["topic_subscriptions", "gauge", "Subscriptions attached to the topic.", (t) => t.subscriptions],
  ];
  for (const [name, type, help, value] of topicFamilies) {
    w.family(P + name, type, help);
    for (const t of topics) w.sample(P + name, topicLabels(t), value(t));
  }
  const subFamilies: [string, "counter" | "gauge", string, (s: SubscriptionStats) => number][] = [
    ["delivered_messages_total", "counter", "Deliveries (first and redeliveries) to subscribers.", (s) => s.delivered],
    ["acked_messages_total", "counter", "Messages acknowledged.", (s) => s.acked],
    ["nacked_messages_total", "counter", "Leases ended by a nack.", (s) => s.nacked],
    ["expired_messages_total", "counter", "Leases that ran out without an ack.", (s) => s.expired],
    ["dead_lettered_messages_total", "counter", "Messages forwarded to the dead-letter topic.", (s) => s.deadLettered],
    ["backlog_messages", "gauge", "Messages not yet acknowledged (waiting and outstanding).", (s) => s.backlog],
    ["outstanding_messages", "gauge", "Messages leased to subscribers and not yet acked.", (s) => s.outstanding],
    ["oldest_unacked_message_age_seconds", "gauge", "Age of the oldest unacknowledged message.", (s) => s.oldestUnackedAgeSeconds],
    ["open_streams", "gauge", "Open StreamingPull streams.", (s) => s.openStreams],
  ];
  for (const [name, type, help, value] of subFamilies) {
    w.family(P + name, type, help);
    for (const s of subs) w.sample(P + name, subLabels(s), value(s));
  }
  const rows = P + "export_rows_written_total";
  w.family(rows, "counter", "Rows (Cloud Storage: messages) written by BigQuery, Bigtable and Cloud Storage subscriptions.");
  for (const s of subs) if (s.exportKind) w.sample(rows, { ...subLabels(s), kind: s.exportKind, state: s.exportState }, s.rowsWritten);
  const gcs = subs.filter((s) => s.exportKind === "cloud_storage");
  for (const [name, help, value] of [
    ["export_objects_written_total", "Objects written by Cloud Storage subscriptions.", (s: SubscriptionStats) => s.objectsWritten],
    ["export_bytes_written_total", "Bytes of the objects written by Cloud Storage subscriptions.", (s: SubscriptionStats) => s.bytesWritten],
  ] as const) {
    w.family(P + name, "counter", help);
    for (const s of gcs) w.sample(P + name, { ...subLabels(s), state: s.exportState }, value(s));
  }
  transformFamilies(w, deps.broker);
  importFamilies(w, deps);
  const stats = deps.broker.stats();
  w.family(P + "topics", "gauge", "Topics.");
  w.sample(P + "topics", {}, stats.topics);
  w.family(P + "subscriptions", "gauge", "Subscriptions.");
  w.sample(P + "subscriptions", {}, stats.subscriptions);
  processFamilies(w, deps.memoryBudget?.() ?? null);
  if (deps.diskFault) {
    const fault = deps.diskFault();
    w.family(P + "data_dir_fault", "gauge", "1 while the data dir refuses writes (full, failing, removed): operations that write are refused.");
    w.sample(P + "data_dir_fault", {}, fault ? 1 : 0);
  }
  return w.lines.join("\n") + "\n";
}

/** Import topics (Cloud Storage, Kafka, Kinesis): objects and messages ingested, objects, records or messages skipped, by state. */
function importFamilies(w: Writer, deps: MetricsDeps): void {
  const rows: { labels: Record<string, string>; of: ImportStatus }[] = [];
  for (const t of deps.broker.topicViews()) {
    const s = deps.imports?.status(t.name);
    if (s && rows.length < MAX_LABELLED) rows.push({ labels: { project: split(t.name)[0], topic: split(t.name)[1], state: s.state }, of: s });
  }
  counterFamilies(w, rows, [
    ["import_objects_total", "Objects a Cloud Storage import topic ingested.", (s) => s.objects],
    ["import_messages_total", "Messages an import topic published.", (s) => s.messages],
    ["import_failures_total", "Objects, records or messages an import topic skipped (unreadable, empty, too large, refused by the topic).", (s) => s.failed],
  ]);
}

/** One counter family per entry, one sample per row (labels and the value it is read from). */
function counterFamilies<T>(w: Writer, rows: readonly { labels: Record<string, string>; of: T }[], families: readonly [string, string, (v: T) => number][]): void {
  for (const [name, help, value] of families) {
    w.family(`pubsub_emulator_${name}`, "counter", help);
    for (const r of rows) w.sample(`pubsub_emulator_${name}`, r.labels, value(r.of));
  }
}

/** Message transforms: per topic or subscription that has enabled ones (since they were last set). */
function transformFamilies(w: Writer, broker: Broker): void {
  type Chain = NonNullable<ReturnType<Broker["transformsOf"]>>;
  const rows: { labels: Record<string, string>; of: Chain }[] = [];
  for (const t of broker.topicViews()) {
    const chain = broker.transformsOf(t.name);
    if (chain && rows.length < MAX_LABELLED) rows.push({ labels: { project: split(t.name)[0], resource_type: "topic", resource: split(t.name)[1] }, of: chain });
  }
  for (const s of broker.subscriptionViews()) {
    if (s.transform && rows.length < MAX_LABELLED) rows.push({ labels: { project: split(s.name)[0], resource_type: "subscription", resource: split(s.name)[1] }, of: s.transform });
  }
  counterFamilies<Chain>(w, rows, [
    ["transformed_messages_total", "Messages that passed every message transform of the resource.", (c) => c.transformed],
    ["filtered_messages_total", "Messages a message transform filtered out (returned null).", (c) => c.filtered],
    ["transform_failed_messages_total", "Messages a message transform failed on (threw, bad result, time or memory limit).", (c) => c.failed],
  ]);
}

function processFamilies(w: Writer, budget: ReturnType<MemoryBudgetProbe>): void {
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  w.family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
  w.sample("process_resident_memory_bytes", {}, mem.rss);
  w.family("process_heap_used_bytes", "gauge", "JavaScript heap in use, in bytes.");
  w.sample("process_heap_used_bytes", {}, mem.heapUsed);
  w.family("process_cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.");
  w.sample("process_cpu_seconds_total", {}, (cpu.user + cpu.system) / 1e6);
  w.family("process_start_time_seconds", "gauge", "Start time of the process since the epoch, in seconds.");
  w.sample("process_start_time_seconds", {}, Math.floor(started / 1000));
  w.family("pubsub_emulator_internal_errors_total", "counter", "Errors no rule caught (each is a bug), answered INTERNAL.");
  w.sample("pubsub_emulator_internal_errors_total", {}, internalErrorCount());
  if (!budget) return;
  w.family("pubsub_emulator_memory_budget_bytes", "gauge", "The memory budget (--max-memory).");
  w.sample("pubsub_emulator_memory_budget_bytes", {}, budget.limitBytes);
  w.family("pubsub_emulator_memory_budget_used_bytes", "gauge", "Bytes of held messages counted against the memory budget.");
  w.sample("pubsub_emulator_memory_budget_used_bytes", {}, budget.usedBytes);
  w.family("pubsub_emulator_memory_budget_held_limit_bytes", "gauge", "Past this many held bytes, Publish is refused (half the budget).");
  w.sample("pubsub_emulator_memory_budget_held_limit_bytes", {}, budget.heldLimitBytes);
  w.family("pubsub_emulator_publishes_refused_total", "counter", "Publish requests refused with RESOURCE_EXHAUSTED by the memory budget.");
  w.sample("pubsub_emulator_publishes_refused_total", {}, budget.publishesRefused);
}

function capTopics(all: TopicStats[]): TopicStats[] {
  if (all.length <= MAX_LABELLED) return all;
  const other: TopicStats = { name: OTHER, subscriptions: 0, published: 0, publishedBytes: 0 };
  for (const t of all.slice(MAX_LABELLED)) {
    other.subscriptions += t.subscriptions;
    other.published += t.published;
    other.publishedBytes += t.publishedBytes;
  }
  return [...all.slice(0, MAX_LABELLED), other];
}

function capSubscriptions(all: SubscriptionStats[]): SubscriptionStats[] {
  if (all.length <= MAX_LABELLED) return all;
  const other: SubscriptionStats = {
    name: OTHER, topic: OTHER, detached: false, exportKind: "", exportState: "", rowsWritten: 0, objectsWritten: 0, bytesWritten: 0, backlog: 0, outstanding: 0, oldestUnackedAgeSeconds: 0, openStreams: 0,
    delivered: 0, acked: 0, nacked: 0, expired: 0, deadLettered: 0,
  };
  for (const s of all.slice(MAX_LABELLED)) {
    for (const k of ["backlog", "outstanding", "openStreams", "delivered", "acked", "nacked", "expired", "deadLettered"] as const) other[k] += s[k];
    other.oldestUnackedAgeSeconds = Math.max(other.oldestUnackedAgeSeconds, s.oldestUnackedAgeSeconds);
  }
  return [...all.slice(0, MAX_LABELLED), other];
}

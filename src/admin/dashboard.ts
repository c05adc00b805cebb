/**
 * The dashboard at /ui/ (its files embedded at build time, no CDN) and its live feed: a
 * server-sent-events stream of snapshots (clock, totals, every topic and subscription with its
 * gauges and counters, active faults) once a second. Message history records while one is open.
 */
import type { ServerResponse } from "node:http";
import css from "./ui/dashboard.css" with { type: "text" };
import chartJs from "./ui/chart.js" with { type: "text" };
import js from "./ui/dashboard.js" with { type: "text" };
import domJs from "./ui/dom.js" with { type: "text" };
import htmlText from "./ui/index.html" with { type: "text" };
import type { SwitchableClock } from "../runtime/switchable-clock.ts";
import type { Broker } from "../core/broker.ts";
import { clockState } from "./clock.ts";
import type { Counters } from "./counters.ts";
import { faultView } from "./fault-routes.ts";
import type { FaultRegistry } from "../rpc/middleware/faults.ts";
import type { MessageHistory } from "./history.ts";
import { HttpError, type Router } from "./router.ts";
import type { ImportStatusSource } from "../ingest/topic-imports.ts";
import { subscriptionStats, topicStats } from "./stats.ts";

// bun-types declares *.html as an HTMLBundle (for Bun.serve); imported as text it is the file's text.
const html = htmlText as unknown as string;

/** Open feeds at most: each costs a snapshot a second. */
export const MAX_FEEDS = 16;
const FEED_INTERVAL_MS = 1000;

export interface DashboardDeps {
  broker: Broker;
  clock: SwitchableClock;
  counters: Counters;
  faults: FaultRegistry;
  history: MessageHistory;
  /** Import topics (Cloud Storage, Kafka, Kinesis): their state and what they ingested. */
  imports?: ImportStatusSource;
}

// The page runs only its own files: no inline script, no framing (its buttons mutate state).
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function asset(res: ServerResponse, type: string, body: string): void {
  res.writeHead(200, { "content-type": `${type}; charset=utf-8`, "content-length": Buffer.byteLength(body), ...SECURITY_HEADERS });
  res.end(body);
}

/** A resource's enabled message transforms for its row: names, and failures when there were any. */
function transformsLabel(broker: DashboardDeps["broker"], name: string): string {
  const t = broker.transformsOf(name)?.summary();
  if (!t) return "";
  const names = t.steps.map((s) => s.functionName).join(", ");
  return t.failed ? `${names} (${t.failed} failed)` : names;
}

export function snapshot(deps: DashboardDeps) {
  return {
    sentAt: Date.now(),
    clock: clockState(deps.clock),
    totals: deps.counters.totals,
    topics: topicStats(deps.broker, deps.counters).map((t) => ({ ...t, transforms: transformsLabel(deps.broker, t.name), ingestion: deps.imports?.status(t.name) ?? null })),
    subscriptions: subscriptionStats(deps.broker, deps.counters).map((s) => ({ ...s, transforms: transformsLabel(deps.broker, s.name) })),
    faults: deps.faults.list().map(faultView),
    history: { capacity: deps.history.capacity, messages: deps.history.size },
  };
}

export function dashboardRoutes(router: Router, deps: DashboardDeps): void {
  router.add("GET", "/ui", (ctx) => void (ctx.res.writeHead(301, { location: "/ui/" }), ctx.res.end()));
  router.add("GET", "/ui/", (ctx) => asset(ctx.res, "text/html", html));
  router.add("GET", "/ui/dashboard.js", (ctx) => asset(ctx.res, "text/javascript", js));
  router.add("GET", "/ui/dom.js", (ctx) => asset(ctx.res, "text/javascript", domJs));
  router.add("GET", "/ui/chart.js", (ctx) => asset(ctx.res, "text/javascript", chartJs));
  router.add("GET", "/ui/dashboard.css", (ctx) => asset(ctx.res, "text/css", css));
  let feeds = 0;
  router.add("GET", "/emulator/v1/events", (ctx) => {
    if (feeds >= MAX_FEEDS) throw new HttpError(503, `At most ${MAX_FEEDS} dashboards can be open at once.`);
    feeds++;
    const { req, res } = ctx;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive", "x-accel-buffering": "no" });
    const closeHistory = deps.history.view();
    const send = () => {
      // A slow reader gets no pile-up: skip a tick while the last one is still buffered.
      if (res.writableNeedDrain) return;
      res.write(`event: snapshot\ndata: ${JSON.stringify(snapshot(deps))}\n\n`);
    };
    send();
    const timer = setInterval(send, FEED_INTERVAL_MS);
    let open = true;
    const done = () => {
      if (!open) return;
      open = false;
      clearInterval(timer);
      closeHistory();
      feeds = Math.max(0, feeds - 1);
      res.end();
    };
    req.once("close", done);
    res.once("error", done);
  });
}

/**
 * HTTP/1.1 on the gRPC port: the gcloud emulator's `GET /` health answer, health, metrics, and
 * the operator API under /emulator/v1/ (reset, clock, faults, inspection) with the dashboard at
 * /ui/. Each family registers its routes from its own file.
 */
import { answerHealthJson, answerRoot } from "./health.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Broker } from "../core/broker.ts";
import type { SwitchableClock } from "../runtime/switchable-clock.ts";
import { actionRoutes } from "./actions.ts";
import { clockRoutes } from "./clock.ts";
import { dashboardRoutes } from "./dashboard.ts";
import type { Counters } from "./counters.ts";
import { faultRoutes } from "./fault-routes.ts";
import type { FaultRegistry } from "../rpc/middleware/faults.ts";
import type { MessageHistory } from "./history.ts";
import type { ImportStatusSource } from "../ingest/topic-imports.ts";
import { inspectRoutes } from "./inspect.ts";
import { resetEmulator } from "./operator.ts";
import type { RpcTable } from "../rpc/table.ts";
import { metricsRoutes, type DiskFaultProbe, type MemoryBudgetProbe } from "./metrics.ts";
import { Router, sendError } from "./router.ts";
import { JWKS_PATH } from "../push-http/oidc.ts";

export interface AdminDeps {
  broker: Broker;
  clock: SwitchableClock;
  counters: Counters;
  faults: FaultRegistry;
  /** The table the transports serve (fault-wrapped): the dashboard's actions go through it too. */
  table: RpcTable;
  history: MessageHistory;
  /** Hook for the memory budget (--max-memory), reported by /metrics when set. */
  memoryBudget?: MemoryBudgetProbe;
  /** The data dir's disk fault (--data-dir), reported by /metrics when set. */
  diskFault?: DiskFaultProbe;
  /** The host the emulator listens on: browsers may address it by this name too. */
  host: string;
  /** The push OIDC signing keys, served where Google serves its own. */
  jwks?: () => Promise<unknown>;
  /** Cloud Storage import topics: their state and what they ingested. */
  imports?: ImportStatusSource;
}

export function adminHandler(deps: AdminDeps) {
  const router = new Router(new Set([deps.host.toLowerCase()]));
  router.add("GET", "/", (ctx) => answerRoot(ctx.res));
  router.add("GET", "/health", (ctx) => answerHealthJson(ctx.res));
  if (deps.jwks) router.add("GET", JWKS_PATH, deps.jwks);
  const reset = (project?: string) => resetEmulator(deps, project);
  router.add("POST", "/reset", () => reset());
  router.add("POST", "/emulator/v1/reset", () => reset());
  router.add("POST", "/emulator/v1/projects/:project/reset", (ctx) => reset(`projects/${ctx.params.project}`));
  clockRoutes(router, deps.clock);
  metricsRoutes(router, deps);
  faultRoutes(router, deps.faults, deps.table);
  inspectRoutes(router, deps);
  actionRoutes(router, deps.table);
  dashboardRoutes(router, deps);
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (router.handle(req, res)) return;
    sendError(res, 404, `No route for ${req.method} ${(req.url ?? "/").split("?")[0].slice(0, 200)}.`);
  };
}

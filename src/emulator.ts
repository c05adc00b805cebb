/** Starts and stops one emulator: broker + RPC table served over gRPC and REST (and admin HTTP) on one port. Used by main.ts and the tests. */
import type { RequestListener } from "node:http";
import { Broker } from "./core/broker.ts";
import type { Clock } from "./core/clock.ts";
import { DEFAULTS, type Config } from "./config.ts";
import { adminHandler } from "./admin/http.ts";
import { createGrpcServer } from "./grpc/server.ts";
import { createRpcTable } from "./rpc/table.ts";
import { restHandler } from "./rest/handler.ts";
import { listen } from "./listener.ts";
import { systemClock } from "./system-clock.ts";

export interface Emulator {
  readonly port: number;
  readonly host: string;
  readonly broker: Broker;
  stop(): Promise<void>;
}

export async function startEmulator(config: Partial<Config> = {}, clock: Clock = systemClock): Promise<Emulator> {
  const c = { ...DEFAULTS, ...config };
  const broker = new Broker({
    clock,
    maxMessagesPerResponse: c.maxMessagesPerResponse,
    fillWaitMs: c.fillWaitMs,
    pullWaitMs: c.pullWaitMs,
  });
  const table = createRpcTable(broker);
  const rest = restHandler(table);
  const admin = adminHandler(broker);
  // REST/JSON under /v1/, as on pubsub.googleapis.com; health, metrics and reset beside it.
  const http: RequestListener = (req, res) => (req.url?.startsWith("/v1/") ? rest(req, res) : admin(req, res));
  const listener = await listen(c.host, c.port, createGrpcServer(table), http);
  return { port: listener.port, host: c.host, broker, stop: () => listener.close() };
}

/** Starts and stops one emulator: broker + gRPC and HTTP on one port. Used by main.ts and the tests. */
import { Broker } from "./core/broker.ts";
import type { Clock } from "./core/clock.ts";
import { DEFAULTS, type Config } from "./config.ts";
import { adminHandler } from "./admin/http.ts";
import { createGrpcServer } from "./grpc/server.ts";
import { listen } from "./listener.ts";
import { MemoryBudget } from "./core/memory-budget.ts";
import { collectGarbage, defaultMaxMemory, processRss } from "./memory-limit.ts";
import { systemClock } from "./system-clock.ts";

/** How long stop() lets calls in flight finish before closing every connection. */
const SHUTDOWN_GRACE_MS = 5000;

export interface Emulator {
  readonly port: number;
  readonly host: string;
  readonly broker: Broker;
  stop(): Promise<void>;
}

export async function startEmulator(config: Partial<Config> = {}, clock: Clock = systemClock): Promise<Emulator> {
  const c = { ...DEFAULTS, ...config };
  const memory = new MemoryBudget({ maxBytes: c.maxMemory || defaultMaxMemory(), clock, rss: processRss, reclaim: collectGarbage });
  const broker = new Broker({
    clock,
    maxMessagesPerResponse: c.maxMessagesPerResponse,
    fillWaitMs: c.fillWaitMs,
    pullWaitMs: c.pullWaitMs,
    memory,
  });
  const listener = await listen(c.host, c.port, createGrpcServer(broker), adminHandler(broker), {
    handshakeTimeoutMs: c.handshakeTimeoutMs,
    shutdownGraceMs: SHUTDOWN_GRACE_MS,
    onClosing: () => broker.shutdown(),
  });
  return { port: listener.port, host: c.host, broker, stop: () => listener.close() };
}

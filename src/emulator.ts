/** Starts and stops one emulator: store + broker + gRPC and HTTP on one port. Used by main.ts and the tests. */
import { Broker } from "./core/broker.ts";
import type { Clock } from "./core/clock.ts";
import type { Store } from "./core/store/store.ts";
import { DEFAULTS, type Config } from "./config.ts";
import { adminHandler } from "./admin/http.ts";
import { createGrpcServer } from "./grpc/server.ts";
import { createRpcTable } from "./rpc/table.ts";
import { listen } from "./listener.ts";
import { log } from "./log.ts";
import { systemClock } from "./system-clock.ts";

export interface Emulator {
  readonly port: number;
  readonly host: string;
  readonly broker: Broker;
  stop(): Promise<void>;
}

/** The in-memory store, or the data dir's (read whole before the broker is built from it). */
async function openStore(dataDir: string): Promise<{ store?: Store; close(): void }> {
  if (!dataDir) return { close() {} };
  const { SqliteStore } = await import("./persistence/sqlite-store.ts");
  const t0 = performance.now();
  const store = SqliteStore.open(dataDir);
  const o = store.opened;
  const ms = (performance.now() - t0).toFixed(0);
  log.info(`data dir ${store.file}: ${o.topics} topics, ${o.subscriptions} subscriptions, ${o.snapshots} snapshots, ${o.messages} messages (read in ${ms} ms)`);
  if (o.dangling) log.warn(`data dir ${store.file}: ${o.dangling} rows pointed at nothing and were left out`);
  return { store, close: () => store.close() };
}

/** Reading a large data dir leaves its row arrays behind: collect them before serving (≈ 1/3 of RSS at 1M messages). */
function collectAfterRestore(broker: Broker): void {
  if (broker.store.heldMessages > 100_000) Bun.gc(true);
}

export async function startEmulator(config: Partial<Config> = {}, clock: Clock = systemClock): Promise<Emulator> {
  const c = { ...DEFAULTS, ...config };
  const { store, close } = await openStore(c.dataDir);
  const broker = new Broker({
    clock,
    store,
    maxMessagesPerResponse: c.maxMessagesPerResponse,
    fillWaitMs: c.fillWaitMs,
    pullWaitMs: c.pullWaitMs,
  });
  collectAfterRestore(broker);
  const listener = await listen(c.host, c.port, createGrpcServer(createRpcTable(broker)), adminHandler(broker)).catch((e) => {
    close();
    throw e;
  });
  return {
    port: listener.port,
    host: c.host,
    broker,
    stop: async () => {
      await listener.close();
      close();
    },
  };
}

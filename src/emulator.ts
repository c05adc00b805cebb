/** Starts and stops one emulator: broker + gRPC server on one port. Used by main.ts and the tests. */
import * as grpc from "@grpc/grpc-js";
import { Broker } from "./core/broker.ts";
import type { Clock } from "./core/clock.ts";
import { DEFAULTS, type Config } from "./config.ts";
import { createGrpcServer } from "./grpc/server.ts";
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
  const server = createGrpcServer(broker);
  const host = c.host.includes(":") ? `[${c.host}]` : c.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${c.port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    port,
    host: c.host,
    broker,
    stop: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), 2000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}

/** Starts and stops one emulator: broker + gRPC and HTTP on one port. Used by main.ts and the tests. */
import { Broker } from "./core/broker.ts";
import type { Clock } from "./core/clock.ts";
import { DEFAULTS, type Config } from "./config.ts";
import { adminHandler } from "./admin/http.ts";
import { createGrpcServer } from "./grpc/server.ts";
import { createRpcTable } from "./rpc/table.ts";
import { listen } from "./listener.ts";
import { HttpPushSender } from "./push/http-sender.ts";
import { OidcSigner } from "./push/oidc.ts";
import { systemClock } from "./system-clock.ts";

export interface Emulator {
  readonly port: number;
  readonly host: string;
  readonly broker: Broker;
  stop(): Promise<void>;
}

/** `prepare` runs on the new broker before the port opens (provisioning); if it throws, nothing listens. */
export async function startEmulator(
  config: Partial<Config> = {},
  clock: Clock = systemClock,
  prepare?: (broker: Broker) => void,
): Promise<Emulator> {
  const c = { ...DEFAULTS, ...config };
  const signer = new OidcSigner(() => clock.now());
  const broker = new Broker({
    clock,
    maxMessagesPerResponse: c.maxMessagesPerResponse,
    fillWaitMs: c.fillWaitMs,
    pullWaitMs: c.pullWaitMs,
    push: { sender: new HttpPushSender(signer), options: { timeoutCapMs: c.pushTimeoutMs } },
  });
  prepare?.(broker);
  const admin = adminHandler(broker, { jwks: () => signer.jwks() });
  const listener = await listen(c.host, c.port, createGrpcServer(createRpcTable(broker)), admin);
  const stop = async () => {
    broker.stopPush();
    await listener.close();
  };
  return { port: listener.port, host: c.host, broker, stop };
}

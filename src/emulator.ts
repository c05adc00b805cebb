/** Starts and stops one emulator: broker + gRPC and HTTP on one port. Used by main.ts and the tests. */
import { Broker } from "./core/broker.ts";
import { DEFAULTS, type Config } from "./config.ts";
import { Counters } from "./admin/counters.ts";
import { withFaults } from "./admin/fault-table.ts";
import { FaultRegistry } from "./admin/faults.ts";
import { MessageHistory } from "./admin/history.ts";
import { adminHandler } from "./admin/http.ts";
import { createGrpcServer } from "./grpc/server.ts";
import { createRpcTable } from "./rpc/table.ts";
import { listen } from "./listener.ts";
import { HttpPushSender } from "./push/http-sender.ts";
import { OidcSigner } from "./push/oidc.ts";
import { SwitchableClock } from "./switchable-clock.ts";

export interface Emulator {
  readonly port: number;
  readonly host: string;
  readonly broker: Broker;
  readonly clock: SwitchableClock;
  stop(): Promise<void>;
}

/** `prepare` runs on the new broker before the port opens (provisioning); if it throws, nothing listens. */
export async function startEmulator(config: Partial<Config> = {}, prepare?: (broker: Broker) => void): Promise<Emulator> {
  const c = { ...DEFAULTS, ...config };
  const clock = new SwitchableClock(c.clock);
  const signer = new OidcSigner(() => clock.now());
  const broker = new Broker({
    clock,
    maxMessagesPerResponse: c.maxMessagesPerResponse,
    fillWaitMs: c.fillWaitMs,
    pullWaitMs: c.pullWaitMs,
    push: { sender: new HttpPushSender(signer), options: { timeoutCapMs: c.pushTimeoutMs } },
  });
  prepare?.(broker);
  // Metrics count from the start, so /metrics counters cover every message.
  const counters = new Counters();
  broker.observe(counters);
  // Wrapped once, so every transport registered over the table meets the injected faults.
  const faults = new FaultRegistry();
  const table = withFaults(createRpcTable(broker), faults);
  const history = new MessageHistory(broker);
  history.configure(c.messageHistory);
  const admin = adminHandler({ broker, clock, counters, faults, table, history, host: c.host, jwks: () => signer.jwks() });
  const listener = await listen(c.host, c.port, createGrpcServer(table), admin);
  const stop = async () => {
    broker.stopPush();
    await listener.close();
  };
  return { port: listener.port, host: c.host, broker, clock, stop };
}

/** Starts an emulator on a free loopback port and hands out official clients pointed at it. */
import { PubSub, type ClientConfig } from "@google-cloud/pubsub";
import { startEmulator, type Emulator } from "../../src/server/emulator.ts";
import type { Config } from "../../src/runtime/config.ts";
import { setLogLevel } from "../../src/runtime/log.ts";
import type { Broker } from "../../src/core/broker.ts";
import { PROJECT } from "./project.ts";

// The auth library would otherwise probe the GCE metadata server on every client.
process.env.METADATA_SERVER_DETECTION ??= "none";

export { PROJECT, unique } from "./project.ts";

export interface TestEmulator extends Emulator {
  endpoint: string;
  client(extra?: ClientConfig): PubSub;
  /** Calls the admin HTTP API (with the header mutating requests need); rejects on a non-2xx answer. */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** Moves the emulator's manual clock forward over HTTP, as a test in another process would. */
  advance(duration: string): Promise<void>;
  close(): Promise<void>;
}

/** `prepare` runs on the broker before the port opens, as provisioning does. */
export async function startTestEmulator(config: Partial<Config> = {}, prepare?: (broker: Broker) => void): Promise<TestEmulator> {
  setLogLevel("silent");
  // PUBSUB_GRPC_SERVER picks the gRPC server for in-process emulators too (spawned ones read it themselves).
  const grpcServer = process.env.PUBSUB_GRPC_SERVER as Config["grpcServer"] | undefined;
  const emu = await startEmulator({ host: "127.0.0.1", port: 0, ...(grpcServer ? { grpcServer } : {}), ...config }, prepare);
  const endpoint = `127.0.0.1:${emu.port}`;
  const clients: PubSub[] = [];
  return Object.assign(emu, {
    endpoint,
    client(extra: ClientConfig = {}) {
      const c = new PubSub({ projectId: PROJECT, apiEndpoint: endpoint, emulatorMode: true, ...extra });
      clients.push(c);
      return c;
    },
    async admin(method: string, path: string, body?: unknown) {
      const res = await fetch(`http://${endpoint}${path}`, {
        method,
        headers: { "x-emulator-admin": "1", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
    async advance(duration: string) {
      await this.admin("POST", "/emulator/v1/clock/advance", { duration });
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await emu.stop();
    },
  });
}


export { waitFor } from "./wait.ts";

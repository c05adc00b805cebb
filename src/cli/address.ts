/** The address a client on this machine uses to reach the configured listening address. */
import type { Config } from "../config.ts";

const WILDCARDS: ReadonlyMap<string, string> = new Map([
  ["0.0.0.0", "localhost"],
  ["::", "localhost"],
  ["", "localhost"],
]);

/** `host:port` for PUBSUB_EMULATOR_HOST (IPv6 literals in brackets). */
export function clientAddress(config: Pick<Config, "host" | "port">): string {
  const host = WILDCARDS.get(config.host) ?? config.host;
  return `${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/** What `gcloud beta emulators pubsub env-init` prints. */
export const envInit = (config: Pick<Config, "host" | "port">): string => `export PUBSUB_EMULATOR_HOST=${clientAddress(config)}\n`;

/** The address a client on this machine uses to reach the configured listening address. */
import type { Config } from "../runtime/config.ts";

const WILDCARDS: ReadonlySet<string> = new Set(["0.0.0.0", "::", ""]);

/**
 * `host:port` for PUBSUB_EMULATOR_HOST (IPv6 literals in brackets). A wildcard listening address
 * becomes `loopback`: "localhost" for people, 127.0.0.1 where no name lookup should be involved.
 */
export function clientAddress(config: Pick<Config, "host" | "port">, loopback = "localhost"): string {
  const host = WILDCARDS.has(config.host) ? loopback : config.host;
  return `${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/** What `gcloud beta emulators pubsub env-init` prints. */
export const envInit = (config: Pick<Config, "host" | "port">): string => `export PUBSUB_EMULATOR_HOST=${clientAddress(config)}\n`;

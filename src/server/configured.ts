/** An emulator started from a whole Config, provisioning included: what `pubsub-emulator start` and the test API (src/api) both run. */
import type { Config } from "../runtime/config.ts";
import { log } from "../runtime/log.ts";
import { startEmulator, type Emulator } from "./emulator.ts";

/** The exact line Testcontainers and scripts wait for, as the gcloud emulator prints it. */
export const readyLine = (port: number): string => `[pubsub] INFO: Server started, listening on ${port}`;

/** Rejects with a ProvisionError, DataDirError or MemoryCapError (by name) or the listen error; nothing is left listening then. */
export async function startConfigured(config: Config): Promise<Emulator> {
  // Imported only when something is declared: a plain start never loads YAML and the plan reader.
  const provisioning = config.configFile || config.provision.length ? await import("../provision/provision.ts") : undefined;
  return startEmulator(config, (broker) => {
    if (!provisioning) return;
    const { created, existing } = provisioning.provision(broker, provisioning.loadPlan(config));
    log.info(`provisioned ${created.length} topics and subscriptions${existing.length ? ` (${existing.length} existed already)` : ""}`);
  });
}

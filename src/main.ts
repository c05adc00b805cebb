/** Composition root: command line → config → provisioning → emulator → signal handling. */
import { parseCommand, type Command } from "./cli/command.ts";
import { loadConfig, type Config } from "./runtime/config.ts";
import { log, setLogFormat, setLogLevel } from "./runtime/log.ts";
import { stopSignals } from "./runtime/stop-signals.ts";

let command: Command;
let config: Config;
try {
  command = parseCommand(process.argv.slice(2));
  if (command.verb === "help" || command.verb === "version") {
    const { usage, version } = await import("./cli/help.ts");
    process.stdout.write(command.verb === "help" ? usage() : version());
    process.exit(0);
  }
  config = loadConfig(command.args, process.env);
} catch (e) {
  process.stderr.write(`pubsub-emulator: ${(e as Error).message}\n`);
  process.exit(2);
}
setLogLevel(config.logLevel);
setLogFormat(config.logFormat);
for (const w of command.warnings) log.warn(w);

if (command.verb === "env-init") {
  const { envInit } = await import("./cli/address.ts");
  process.stdout.write(envInit(config));
  process.exit(0);
}
if (command.verb === "healthcheck") {
  const { healthcheck, healthTarget } = await import("./cli/healthcheck.ts");
  const result = await healthcheck(healthTarget(command.args, config, process.env.PUBSUB_ADDRESS_FILE));
  if (!result.ok) process.stderr.write(`unhealthy: ${result.detail}\n`);
  process.exit(result.ok ? 0 : 1);
}

// Installed before the start (Bun arms signal handlers asynchronously): a SIGTERM right after
// the started line, as Testcontainers or a quick `docker stop` sends, still shuts down cleanly.
let emulator: { stop(): Promise<void> } | undefined;
let stopping = false;
for (const signal of stopSignals()) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: shutting down`, { signal });
    await emulator?.stop();
    process.exit(0);
  });
}

// Imported after the commands above so they answer without loading gRPC and the protos.
const { readyLine, startConfigured } = await import("./server/configured.ts");
const started = await startConfigured(config).catch((e: Error) => {
  if (e.name === "ProvisionError") log.error(`cannot provision: ${e.message}`);
  else if (e.name === "DataDirError" || e.name === "MemoryCapError") log.error(e.message);
  else log.error(`cannot listen on ${config.host}:${config.port}: ${e.message}`);
  process.exit(e.name === "ProvisionError" ? 2 : 1);
});
emulator = started;
// Where the image's HEALTHCHECK finds the port we serve on (src/cli/healthcheck.ts), written
// before the started line so that a ready emulator always has it.
const addressFile = process.env.PUBSUB_ADDRESS_FILE;
if (addressFile) {
  const { recordAddress } = await import("./cli/healthcheck.ts");
  try {
    recordAddress(addressFile, { host: config.host, port: started.port });
  } catch (e) {
    log.warn(`cannot write PUBSUB_ADDRESS_FILE ${addressFile}; healthcheck falls back to the configured address: ${(e as Error).message}`);
  }
}
// The started line Testcontainers and scripts wait for: its text whole, in either log format.
log.ready(readyLine(started.port), { port: started.port, host: config.host, grpcServer: config.grpcServer });
if (config.project) log.info(`project ${config.project} (every project is served)`, { project: config.project });

// One bad request or connection must not take down every client's emulator: log and go on.
process.on("uncaughtException", (e) => log.error("uncaught exception", e));
process.on("unhandledRejection", (e) => log.error("unhandled rejection", e));


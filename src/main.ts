/** Composition root: config → emulator → signal handling. */
import { loadConfig, usage } from "./config.ts";
import { log, setLogLevel } from "./log.ts";

const argv = process.argv.slice(2);
if (argv.includes("--help") || argv.includes("-h")) {
  process.stdout.write(usage());
  process.exit(0);
}

let config;
try {
  config = loadConfig(argv, process.env);
} catch (e) {
  process.stderr.write(`pubsub-emulator: ${(e as Error).message}\n`);
  process.exit(2);
}
setLogLevel(config.logLevel);

// Imported after --help and config checks so they answer without loading gRPC and the protos.
const { startEmulator } = await import("./emulator.ts");
const emulator = await startEmulator(config).catch((e: Error) => {
  if (e.name === "DataDirError") log.error(e.message);
  else log.error(`cannot listen on ${config.host}:${config.port}: ${e.message}`);
  process.exit(1);
});
// The exact line Testcontainers and scripts wait for, as the gcloud emulator prints it.
console.log(`[pubsub] INFO: Server started, listening on ${emulator.port}`);
if (config.project) log.info(`project ${config.project} (every project is served)`);

// One bad request or connection must not take down every client's emulator: log and go on.
process.on("uncaughtException", (e) => log.error("uncaught exception", e));
process.on("unhandledRejection", (e) => log.error("unhandled rejection", e));

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: shutting down`);
    await emulator.stop();
    process.exit(0);
  });
}

/** --help and --version text, made from the one option table. */
import { OPTIONS } from "../runtime/config.ts";
import pkg from "../../package.json" with { type: "json" };

export const version = (): string => `pubsub-emulator ${pkg.version} (bun ${process.versions.bun ?? "?"})\n`;

/** PUBSUB_PROJECT<N> reads as "PUBSUB_PROJECT1, PUBSUB_PROJECT2, …". */
export const envNames = (env: string): string => (env.endsWith("<N>") ? `${env.slice(0, -3)}1, ${env.slice(0, -3)}2, …` : env);

export function usage(): string {
  const rows = OPTIONS.map((o) => {
    const names = [o.flag, ...(o.aliases ?? [])].join(", ");
    const dflt = o.default ? ` (default ${o.default})` : "";
    return `  ${names}\n      ${o.help}${dflt}\n      env ${envNames(o.env)}`;
  });
  return `Usage:
  pubsub-emulator [start] [flags]       serve until SIGINT/SIGTERM (Windows: Ctrl+C, Ctrl+Break)
  pubsub-emulator env-init [flags]      print export PUBSUB_EMULATOR_HOST=…
  pubsub-emulator healthcheck [flags]   exit 0 when the emulator at --host-port answers (without
                                        it: the address start wrote to $PUBSUB_ADDRESS_FILE, if set)
  pubsub-emulator --version | --help
  gcloud beta emulators pubsub start|env-init [flags]   (gcloud's command line, as Testcontainers passes it)

Every flag has an env var; flags win. --flag value and --flag=value both work.

${rows.join("\n")}
`;
}

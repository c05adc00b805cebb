/** The one typed Config: every flag, its env var and its default in one table. */
import type { Level } from "./log.ts";

export interface Config {
  host: string;
  port: number;
  /** Informational: the project the emulator is started for (every project is served). */
  project: string;
  maxMessagesPerResponse: number;
  fillWaitMs: number;
  pullWaitMs: number;
  logLevel: Level;
  /** Where topics, subscriptions and messages are kept across restarts; "" keeps them in memory. */
  dataDir: string;
}

interface Option {
  flag: string;
  env: string;
  help: string;
  apply(c: Config, v: string): void;
}

const int = (flag: string, min: number, max: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be an integer from ${min} to ${max} (got "${v}")`);
  return n;
};

export const OPTIONS: Option[] = [
  {
    flag: "--host-port",
    env: "PUBSUB_HOST_PORT",
    help: "HOST:PORT to listen on (default localhost:8085; port 0 picks a free one)",
    apply(c, v) {
      const i = v.lastIndexOf(":");
      if (i <= 0) throw new Error(`--host-port must be HOST:PORT (got "${v}")`);
      c.host = v.slice(0, i).replace(/^\[(.*)\]$/, "$1");
      c.port = int("--host-port port", 0, 65535)(v.slice(i + 1));
    },
  },
  { flag: "--project", env: "PUBSUB_PROJECT_ID", help: "project id, for the log (all projects are served)", apply: (c, v) => (c.project = v) },
  {
    flag: "--max-messages-per-response",
    env: "PUBSUB_MAX_MESSAGES_PER_RESPONSE",
    help: "most messages in one Pull/StreamingPull response (default 1000)",
    apply: (c, v) => (c.maxMessagesPerResponse = int("--max-messages-per-response", 1, 1000)(v)),
  },
  {
    flag: "--fill-wait-ms",
    env: "PUBSUB_FILL_WAIT_MS",
    help: "how long a stream waits to fill a response after a publish (default 0: send at once)",
    apply: (c, v) => (c.fillWaitMs = int("--fill-wait-ms", 0, 10_000)(v)),
  },
  {
    flag: "--pull-wait-ms",
    env: "PUBSUB_PULL_WAIT_MS",
    help: "how long a Pull waits for messages before answering empty (default 5000)",
    apply: (c, v) => (c.pullWaitMs = int("--pull-wait-ms", 0, 600_000)(v)),
  },
  {
    flag: "--data-dir",
    env: "PUBSUB_DATA_DIR",
    help: "keep topics, subscriptions, snapshots and messages in DIR across restarts (default: in memory)",
    apply: (c, v) => (c.dataDir = v),
  },
  {
    flag: "--log-level",
    env: "PUBSUB_LOG_LEVEL",
    help: "debug | info | warn | error | silent (default info)",
    apply(c, v) {
      if (!["debug", "info", "warn", "error", "silent"].includes(v)) throw new Error(`--log-level must be debug, info, warn, error or silent (got "${v}")`);
      c.logLevel = v as Level;
    },
  },
];

export const DEFAULTS: Config = {
  host: "localhost",
  port: 8085,
  project: "",
  maxMessagesPerResponse: 1000,
  fillWaitMs: 0,
  pullWaitMs: 5000,
  logLevel: "info",
  dataDir: "",
};

/** Env vars first, then flags (`--flag value` or `--flag=value`); a bad value throws naming it. */
export function loadConfig(argv: readonly string[], env: Record<string, string | undefined>): Config {
  const c: Config = { ...DEFAULTS };
  for (const o of OPTIONS) {
    const v = env[o.env];
    if (v !== undefined && v !== "") o.apply(c, v);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const o = OPTIONS.find((x) => x.flag === flag);
    if (!o) throw new Error(`unknown flag ${flag} (try --help)`);
    const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    o.apply(c, v);
  }
  return c;
}

export function usage(): string {
  const rows = OPTIONS.map((o) => `  ${o.flag.padEnd(30)} ${o.help}\n  ${"".padEnd(30)} env ${o.env}`);
  return `Usage: bun src/main.ts [flags]\n\n${rows.join("\n")}\n`;
}

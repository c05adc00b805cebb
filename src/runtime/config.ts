/** The one typed Config: every flag, its env var and its default in one table. */
import type { Level, LogFormat } from "./log.ts";
import { PROJECT_QUOTAS, type ProjectQuotas, type QuotaKind } from "../core/rules/quotas.ts";

export interface Config {
  host: string;
  port: number;
  /** Informational: the project the emulator is started for (every project is served). */
  project: string;
  maxMessagesPerResponse: number;
  fillWaitMs: number;
  /** Causal delivery: a published message is delivered this long after its Publish was answered; -1 = at once ("off"). */
  causalDelayMs: number;
  pullWaitMs: number;
  /** Caps a push request's timeout below the subscription's ack deadline; 0 = the ack deadline alone. */
  pushTimeoutMs: number;
  logLevel: Level;
  /** Log lines as text, or one JSON object each (Cloud Logging's structured logging). */
  logFormat: LogFormat;
  /** Where topics, subscriptions and messages are kept across restarts (gcloud's --data-dir); "" keeps them in memory. */
  dataDir: string;
  /** A JSON or YAML file of projects, topics and subscriptions to create at start. */
  configFile: string;
  /** `project,topic1,topic2:sub1:sub2` specs (PUBSUB_PROJECT1, PUBSUB_PROJECT2, … or --provision). */
  provision: string[];
  /** Where time comes from: the wall clock, or a test clock moved over HTTP (/emulator/v1/clock). */
  clock: "system" | "manual";
  /** Messages whose history (deliveries, acks, nacks, expiries) the operator API keeps; 0 = off. */
  messageHistory: number;
  /** Memory budget in bytes; 0 = a share of the cgroup limit or physical memory (src/runtime/memory-limit.ts). */
  maxMemory: number;
  /** Most time a connection may take to send its preface, or an HTTP request its headers. */
  handshakeTimeoutMs: number;
  /** Where BigQuery subscriptions find their tables (schema files) and append their rows; "" = none. */
  bigqueryDir: string;
  /** Cloud Storage subscriptions write to (and import topics read from) DIR/BUCKET/; "" = none. */
  storageDir: string;
  /** A Cloud Storage emulator's address, used when no storageDir is set; "" = none. */
  storageEmulatorHost: string;
  /** host:port of a Cloud Bigtable emulator that Bigtable subscriptions write to; "" = none. */
  bigtableEmulatorHost: string;
  /** Per-project resource limits lowered or raised from the real service's (`topics=100,…`). */
  projectQuotas: Partial<ProjectQuotas>;
  /** Amazon MSK import topics: `ARN=host:port` entries, the Kafka bootstrap server each cluster ARN is dialled at. */
  mskBootstrap: string[];
  /** SASL credentials Kafka import topics log in with, `MECHANISM:user:password` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512); "" = none. */
  kafkaSasl: string;
  /** The Kinesis endpoint Kinesis import topics read from (the AWS SDKs' AWS_ENDPOINT_URL_KINESIS, then AWS_ENDPOINT_URL); "" = none. */
  kinesisEndpoint: string;
  awsEndpointUrl: string;
  /** The gRPC server on the shared port: our own on our own HTTP/2 ("raw"), our own over node:http2 ("lean") or @grpc/grpc-js's. */
  grpcServer: "lean" | "raw" | "grpc-js";
  /** Where ai_inference transforms send their requests: `URL` (every endpoint) or `ENDPOINT_NAME=URL`; none = pass-through. */
  aiInferenceEndpoints: string[];
  /** Most time one model request may take before its message fails. */
  aiInferenceTimeoutMs: number;
  /** Worker threads that run JavaScript UDFs off the event loop; 0 runs them on it. */
  transformWorkers: number;
}

/** One --ai-inference-endpoint entry: the Vertex AI endpoint name it serves (null: every one) and where to send. */
export interface InferenceRoute {
  name: string | null;
  url: URL;
}

const SEGMENT = "[A-Za-z0-9][A-Za-z0-9._-]{0,127}";
const ENDPOINT_NAME = new RegExp(`^projects/${SEGMENT}/locations/${SEGMENT}/(endpoints/${SEGMENT}|publishers/${SEGMENT}/models/${SEGMENT})$`);

/** Whether a string is a Vertex AI endpoint or publisher model name (safe to put in a URL path). */
export const isInferenceEndpointName = (name: string): boolean => ENDPOINT_NAME.test(name);

/** Reads `URL` or `projects/…/endpoints/E=URL` (or `…/publishers/P/models/M=URL`); the URL must be http(s). */
export function inferenceRoute(entry: string): InferenceRoute {
  const eq = entry.indexOf("=");
  const named = eq > 0 && !/^https?:/i.test(entry);
  const name = named ? entry.slice(0, eq) : null;
  const raw = named ? entry.slice(eq + 1) : entry;
  if (name !== null && !ENDPOINT_NAME.test(name)) {
    throw new Error(`--ai-inference-endpoint: "${name.slice(0, 200)}" is not projects/P/locations/L/endpoints/E or projects/P/locations/L/publishers/P/models/M`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--ai-inference-endpoint: "${raw.slice(0, 200)}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`--ai-inference-endpoint: ${url.protocol} URLs are not supported; use http or https`);
  return { name, url };
}

export interface Option {
  flag: string;
  /** Other spellings of the flag (gcloud's). */
  aliases?: string[];
  /** Env var; a name ending in `<N>` reads NAME1, NAME2, … in numeric order. */
  env: string;
  /** The default as the table shows it. */
  default: string;
  help: string;
  apply(c: Config, v: string): void;
}

const int = (flag: string, min: number, max: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be an integer from ${min} to ${max} (got "${v}")`);
  return n;
};

// Our level names and gcloud's --verbosity words.
const LOG_LEVELS = new Map<string, Level>([
  ["debug", "debug"],
  ["info", "info"],
  ["warn", "warn"],
  ["warning", "warn"],
  ["error", "error"],
  ["critical", "error"],
  ["silent", "silent"],
  ["none", "silent"],
]);

/** A size in bytes: a plain integer, or with K, M, G (binary: 1K = 1024), optionally KB/KiB; 0 = the default. */
const size = (flag: string, min: number) => (v: string) => {
  const m = /^(\d+(?:\.\d+)?)\s*(?:([KMG])(?:i?B)?)?$/i.exec(v.trim());
  const n = m ? Number(m[1]) * 1024 ** (m[2] ? "KMG".indexOf(m[2].toUpperCase()) + 1 : 0) : NaN;
  if (n === 0) return 0;
  if (!(n >= min)) throw new Error(`${flag} must be 0 or a size of at least ${min / 2 ** 20} MB, like 512M or 2G (got "${v}")`);
  return Math.floor(n);
};

/** `topics=100,snapshots=10`: each kind named at most once, each limit 1 to 1,000,000. */
function quotas(v: string): Partial<ProjectQuotas> {
  const out: Partial<Record<QuotaKind, number>> = {};
  for (const part of v.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [kind, n, ...rest] = part.split("=");
    if (!Object.hasOwn(PROJECT_QUOTAS, kind) || n === undefined || rest.length || Object.hasOwn(out, kind)) {
      throw new Error(`--project-quotas takes KIND=N pairs, KIND one of ${Object.keys(PROJECT_QUOTAS).join(", ")} (got "${v}")`);
    }
    out[kind as QuotaKind] = int(`--project-quotas ${kind}`, 1, 1_000_000)(n);
  }
  return out;
}

export const OPTIONS: Option[] = [
  {
    flag: "--host-port",
    env: "PUBSUB_HOST_PORT",
    default: "localhost:8085",
    help: "where to listen, gRPC and HTTP on one port; port 0 picks a free one",
    apply(c, v) {
      const i = v.lastIndexOf(":");
      if (i <= 0) throw new Error(`--host-port must be HOST:PORT (got "${v}")`);
      c.host = v.slice(0, i).replace(/^\[(.*)\]$/, "$1");
      c.port = int("--host-port port", 0, 65535)(v.slice(i + 1));
    },
  },
  {
    flag: "--project",
    env: "PUBSUB_PROJECT_ID",
    default: "",
    help: "project id, for the log (every project is served)",
    apply: (c, v) => (c.project = v),
  },
  {
    flag: "--max-messages-per-response",
    env: "PUBSUB_MAX_MESSAGES_PER_RESPONSE",
    default: "1000",
    help: "most messages in one Pull/StreamingPull response",
    apply: (c, v) => (c.maxMessagesPerResponse = int("--max-messages-per-response", 1, 1000)(v)),
  },
  {
    flag: "--fill-wait-ms",
    env: "PUBSUB_FILL_WAIT_MS",
    default: "0",
    help: "how long a stream waits to fill a response after a publish; 0 sends at once",
    apply: (c, v) => (c.fillWaitMs = int("--fill-wait-ms", 0, 10_000)(v)),
  },
  {
    flag: "--causal-delay-ms",
    env: "PUBSUB_CAUSAL_DELAY_MS",
    default: "5",
    help: "deliver a published message only after its Publish was answered, and this many ms later; off = at once",
    apply: (c, v) => (c.causalDelayMs = v === "off" ? -1 : int("--causal-delay-ms", 0, 1000)(v)),
  },
  {
    flag: "--pull-wait-ms",
    env: "PUBSUB_PULL_WAIT_MS",
    default: "5000",
    help: "how long a unary Pull waits for messages before answering empty",
    apply: (c, v) => (c.pullWaitMs = int("--pull-wait-ms", 0, 600_000)(v)),
  },
  {
    flag: "--push-timeout-ms",
    env: "PUBSUB_PUSH_TIMEOUT_MS",
    default: "0",
    help: "longest a push request may take; 0 = the subscription's ack deadline, as the real service",
    apply: (c, v) => (c.pushTimeoutMs = int("--push-timeout-ms", 0, 600_000)(v)),
  },
  {
    flag: "--log-level",
    aliases: ["--verbosity"],
    env: "PUBSUB_LOG_LEVEL",
    default: "info",
    help: "debug, info, warn, error or silent; gcloud's --verbosity words (warning, critical, none) too",
    apply(c, v) {
      const level = LOG_LEVELS.get(v.toLowerCase());
      if (!level) throw new Error(`--log-level must be debug, info, warn, error or silent (got "${v}")`);
      c.logLevel = level;
    },
  },
  {
    flag: "--log-format",
    env: "PUBSUB_LOG_FORMAT",
    default: "text",
    help: "text, or json: one JSON object per line with severity, message and time, as Cloud Logging reads them",
    apply(c, v) {
      if (v !== "text" && v !== "json") throw new Error(`--log-format must be text or json (got "${v}")`);
      c.logFormat = v;
    },
  },
  {
    flag: "--data-dir",
    env: "PUBSUB_DATA_DIR",
    default: "",
    help: "keep topics, subscriptions, snapshots, schemas, IAM policies and messages in DIR across restarts (default: in memory)",
    apply: (c, v) => (c.dataDir = v),
  },
  {
    flag: "--config",
    env: "PUBSUB_CONFIG",
    default: "",
    help: "JSON or YAML file of projects, topics and subscriptions to create before serving",
    apply: (c, v) => (c.configFile = v),
  },
  {
    flag: "--provision",
    env: "PUBSUB_PROJECT<N>",
    default: "",
    help: "project,topic1,topic2:sub1:sub2 to create before serving; repeatable",
    apply: (c, v) => c.provision.push(v),
  },
  {
    flag: "--clock",
    env: "PUBSUB_CLOCK",
    default: "system",
    help: "system | manual: manual time moves only through POST /emulator/v1/clock/advance",
    apply(c, v) {
      if (v !== "system" && v !== "manual") throw new Error(`--clock must be system or manual (got "${v}")`);
      c.clock = v;
    },
  },
  {
    flag: "--message-history",
    env: "PUBSUB_MESSAGE_HISTORY",
    default: "0",
    help: "keep the history of the last N messages for GET /emulator/v1/messages/ID; 0 = off",
    apply: (c, v) => (c.messageHistory = int("--message-history", 0, 1_000_000)(v)),
  },
  {
    flag: "--max-memory",
    env: "PUBSUB_MAX_MEMORY",
    default: "0",
    help: "memory budget, like 512M or 2G: past it Publish answers RESOURCE_EXHAUSTED; 0 = 75% of the container's limit, else 50% of RAM",
    apply: (c, v) => (c.maxMemory = size("--max-memory", 16 * 2 ** 20)(v)),
  },
  {
    flag: "--handshake-timeout-ms",
    env: "PUBSUB_HANDSHAKE_TIMEOUT_MS",
    default: "5000",
    help: "a connection that has not sent its HTTP/2 preface, or an HTTP request its headers, by then is closed",
    apply: (c, v) => (c.handshakeTimeoutMs = int("--handshake-timeout-ms", 100, 600_000)(v)),
  },
  {
    flag: "--bigquery-dir",
    env: "PUBSUB_BIGQUERY_DIR",
    default: "",
    help: "BigQuery subscriptions write to DIR/PROJECT/DATASET/TABLE.jsonl, the table declared by TABLE.schema.json beside it",
    apply: (c, v) => (c.bigqueryDir = v),
  },
  {
    flag: "--storage-dir",
    env: "PUBSUB_STORAGE_DIR",
    default: "",
    help: "Cloud Storage subscriptions write objects to DIR/BUCKET/ (a bucket exists when its folder does); import topics read them",
    apply: (c, v) => (c.storageDir = v),
  },
  {
    flag: "--storage-emulator-host",
    env: "STORAGE_EMULATOR_HOST",
    default: "",
    help: "a Cloud Storage emulator (http://host:port) that Cloud Storage subscriptions and import topics use when --storage-dir is not set",
    apply: (c, v) => (c.storageEmulatorHost = v),
  },
  {
    flag: "--bigtable-emulator-host",
    env: "BIGTABLE_EMULATOR_HOST",
    default: "",
    help: "host:port of the Cloud Bigtable emulator that Bigtable subscriptions write their rows to",
    apply: (c, v) => (c.bigtableEmulatorHost = v),
  },
  {
    flag: "--project-quotas",
    env: "PUBSUB_PROJECT_QUOTAS",
    default: "",
    help: `per-project resource limits, like topics=100,snapshots=10: a create past one answers RESOURCE_EXHAUSTED; kinds not named keep the real service's (${Object.entries(PROJECT_QUOTAS).map(([k, n]) => `${k}=${n}`).join(",")})`,
    apply: (c, v) => (c.projectQuotas = quotas(v)),
  },
  {
    flag: "--msk-bootstrap",
    env: "PUBSUB_MSK_BOOTSTRAP",
    default: "",
    help: "ARN=host:port: Amazon MSK import topics with this cluster_arn read the Kafka broker at host:port; repeatable, or comma-separated in the env var",
    apply(c, v) {
      for (const entry of v.split(",").map((e) => e.trim()).filter(Boolean)) {
        const eq = entry.lastIndexOf("=");
        if (eq <= 0 || !/^[^\s:]+:\d{1,5}$/.test(entry.slice(eq + 1))) throw new Error(`--msk-bootstrap must be ARN=host:port (got "${entry}")`);
        c.mskBootstrap.push(entry);
      }
    },
  },
  {
    flag: "--kafka-sasl",
    env: "PUBSUB_KAFKA_SASL",
    default: "",
    help: "MECHANISM:user:password (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512) that Kafka import topics (Confluent Cloud, MSK) log in with",
    apply(c, v) {
      if (v && !/^(PLAIN|SCRAM-SHA-256|SCRAM-SHA-512):[^:]+:.*$/.test(v)) throw new Error("--kafka-sasl must be MECHANISM:user:password with MECHANISM PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512");
      c.kafkaSasl = v;
    },
  },
  {
    flag: "--kinesis-endpoint",
    env: "AWS_ENDPOINT_URL_KINESIS",
    default: "",
    help: "the Kinesis endpoint (http://host:port) Amazon Kinesis import topics read their streams from",
    apply: (c, v) => (c.kinesisEndpoint = v),
  },
  {
    flag: "--aws-endpoint-url",
    env: "AWS_ENDPOINT_URL",
    default: "",
    help: "the AWS endpoint Kinesis import topics use when --kinesis-endpoint is not set",
    apply: (c, v) => (c.awsEndpointUrl = v),
  },
  {
    flag: "--grpc-server",
    env: "PUBSUB_GRPC_SERVER",
    default: "raw",
    help: "raw | lean | grpc-js: the gRPC server layer: our own gRPC on our own HTTP/2 over Bun's sockets (raw), our own gRPC on Bun's node:http2 (lean), or @grpc/grpc-js's server",
    apply(c, v) {
      if (v !== "lean" && v !== "raw" && v !== "grpc-js") throw new Error(`--grpc-server must be lean, raw or grpc-js (got "${v}")`);
      c.grpcServer = v;
    },
  },
  {
    flag: "--ai-inference-endpoint",
    env: "PUBSUB_AI_INFERENCE_ENDPOINT",
    default: "",
    help: "where ai_inference transforms send their requests: URL, or ENDPOINT_NAME=URL for one Vertex AI endpoint (projects/P/locations/L/endpoints/E); repeatable, or several separated by spaces; none = ai_inference passes messages through",
    apply(c, v) {
      for (const entry of v.split(/\s+/).filter(Boolean)) {
        inferenceRoute(entry);
        c.aiInferenceEndpoints.push(entry);
      }
    },
  },
  {
    flag: "--ai-inference-timeout-ms",
    env: "PUBSUB_AI_INFERENCE_TIMEOUT_MS",
    default: "30000",
    help: "most time one ai_inference request may take; past it the message fails as a failing transform does",
    apply: (c, v) => (c.aiInferenceTimeoutMs = int("--ai-inference-timeout-ms", 10, 600_000)(v)),
  },
  {
    flag: "--transform-workers",
    env: "PUBSUB_TRANSFORM_WORKERS",
    default: "2",
    help: "worker threads that run JavaScript UDFs (message transforms) off the event loop, started as needed; 0 = on the event loop",
    apply: (c, v) => (c.transformWorkers = int("--transform-workers", 0, 64)(v)),
  },
];

export const DEFAULTS: Config = {
  host: "localhost",
  port: 8085,
  project: "",
  maxMessagesPerResponse: 1000,
  fillWaitMs: 0,
  causalDelayMs: 5,
  pullWaitMs: 5000,
  pushTimeoutMs: 0,
  logLevel: "info",
  logFormat: "text",
  dataDir: "",
  configFile: "",
  provision: [],
  clock: "system",
  messageHistory: 0,
  maxMemory: 0,
  handshakeTimeoutMs: 5000,
  bigqueryDir: "",
  storageDir: "",
  storageEmulatorHost: "",
  bigtableEmulatorHost: "",
  projectQuotas: {},
  mskBootstrap: [],
  kafkaSasl: "",
  kinesisEndpoint: "",
  awsEndpointUrl: "",
  grpcServer: "raw",
  aiInferenceEndpoints: [],
  aiInferenceTimeoutMs: 30_000,
  transformWorkers: 2,
};

/** The values of `o`'s env var: NAME, or NAME1, NAME2, … for a numbered one. */
function envValues(o: Option, env: Record<string, string | undefined>): string[] {
  if (!o.env.endsWith("<N>")) return env[o.env] ? [env[o.env]!] : [];
  const prefix = o.env.slice(0, -3);
  const numbered = Object.keys(env)
    .map((k) => (k.startsWith(prefix) && /^[1-9][0-9]{0,5}$/.test(k.slice(prefix.length)) ? Number(k.slice(prefix.length)) : 0))
    .filter((n) => n > 0 && env[prefix + n])
    .sort((a, b) => a - b);
  return numbered.map((n) => env[prefix + n]!);
}

export const findOption = (flag: string): Option | undefined => OPTIONS.find((x) => x.flag === flag || x.aliases?.includes(flag));

/** Env vars first, then flags (`--flag value` or `--flag=value`); a bad value throws naming it. */
export function loadConfig(argv: readonly string[], env: Record<string, string | undefined>): Config {
  const c: Config = { ...DEFAULTS, provision: [], mskBootstrap: [], aiInferenceEndpoints: [] };
  for (const o of OPTIONS) for (const v of envValues(o, env)) o.apply(c, v);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const o = findOption(flag);
    if (!o) throw new Error(`unknown flag ${flag} (try --help)`);
    const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    o.apply(c, v);
  }
  return c;
}

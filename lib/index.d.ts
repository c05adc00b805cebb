/**
 * pubsub-emulator's test API. Under Bun the emulator runs in the calling process; under Node it
 * runs as a Bun child process (Bun comes with the package) behind the same interface, and goes
 * away with its parent, even one killed with SIGKILL.
 */

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/**
 * The command line's flags in camelCase (`--max-memory 512M` → `maxMemory: "512M"`), checked as
 * the command line checks them. Environment variables are not read: only these options count.
 */
export interface StartOptions {
  /** Address to listen on; default "127.0.0.1". */
  host?: string;
  /** Default 0: a free port, read back as `emu.port`. */
  port?: number;
  /** The project for `emu.env.PUBSUB_PROJECT_ID` and the log (every project is served). */
  project?: string;
  /** "manual": time moves only through `advanceClock` / `setClockTime`. Default "system". */
  clock?: "system" | "manual";
  /** Default "warn" (the command line's default is "info"). The level is process-wide in process. */
  logLevel?: LogLevel;
  /** "json": one JSON object per log line, as Cloud Logging reads them (docs/logging.md). Process-wide in process. */
  logFormat?: "text" | "json";
  /** `project,topic1,topic2:sub1:sub2` specs to create before serving. */
  provision?: string | string[];
  /** A JSON or YAML file of projects, topics and subscriptions to create before serving. */
  config?: string;
  /** Keep everything in this folder across restarts; default in memory. */
  dataDir?: string;
  /** Keep the history of the last N messages for `emu.message(id)`; default 0 (off). */
  messageHistory?: number;
  /** Memory budget: bytes or "512M", "2G"; 0 = the default share of memory. */
  maxMemory?: number | string;
  causalDelayMs?: number | "off";
  fillWaitMs?: number;
  pullWaitMs?: number;
  pushTimeoutMs?: number;
  maxMessagesPerResponse?: number;
  handshakeTimeoutMs?: number;
  bigqueryDir?: string;
  storageDir?: string;
  storageEmulatorHost?: string;
  bigtableEmulatorHost?: string;
  /** `topics=100,snapshots=10`. */
  projectQuotas?: string;
  grpcServer?: "raw" | "lean" | "grpc-js";
  /** Where ai_inference transforms send requests: `URL`, or `projects/P/locations/L/endpoints/E=URL`; several as an array. */
  aiInferenceEndpoint?: string | string[];
  aiInferenceTimeoutMs?: number;
  /** Worker threads that run JavaScript UDFs off the event loop; default 2, 0 runs them on it. */
  transformWorkers?: number;
  /** Under Node: how long to wait for the child's ready line before failing; default 30000. */
  startTimeoutMs?: number;
}

/** Variables the official clients read; spread them into `process.env`. */
export interface EmulatorEnv {
  PUBSUB_EMULATOR_HOST: string;
  PUBSUB_PROJECT_ID?: string;
}

export interface ClockState {
  mode: "system" | "manual";
  /** RFC 3339. */
  time: string;
  timeMs: number;
  pendingTimers: number;
}

export interface ClockMove extends ClockState {
  firedTimers: number;
}

export interface ResetResult {
  reset: true;
  topics: number;
  subscriptions: number;
  /** Injected faults cleared (a full reset only). */
  faults: number;
}

/** The operator API's inspection answers, as `GET /emulator/v1/…` gives them (see docs). */
export interface TopicInfo {
  name: string;
  subscriptions: string[];
  [field: string]: unknown;
}

export interface SubscriptionInfo {
  name: string;
  topic: string;
  ackDeadlineSeconds: number;
  [field: string]: unknown;
}

export interface Lease {
  ackId: string;
  messageId: string;
  deliveryAttempt: number;
  deadline: string;
  secondsLeft: number;
  orderingKey: string;
  publishTime: string;
  consumer: "pull" | "stream";
}

export interface WaitingMessage {
  messageId: string;
  /** Base64, at most 64 KiB of it (`dataTruncated` then). */
  data: string;
  attributes: Record<string, string>;
  orderingKey?: string;
  publishTime: string;
  size: number;
  deliveryAttempts: number;
  [field: string]: unknown;
}

export interface Emulator extends AsyncDisposable {
  /** "127.0.0.1:PORT": what PUBSUB_EMULATOR_HOST and `apiEndpoint` take. */
  readonly host: string;
  readonly port: number;
  readonly env: EmulatorEnv;
  /** "in-process" under Bun, "child-process" under Node. */
  readonly mode: "in-process" | "child-process";
  /** The process serving it: this one in process, else the child's. */
  readonly pid: number;
  /** Deletes every topic, subscription, snapshot and schema (and clears faults), or only one project's. */
  reset(project?: string): Promise<ResetResult>;
  clock(): Promise<ClockState>;
  setClockMode(mode: "system" | "manual"): Promise<ClockState>;
  /** "10s", "250ms", "2m", "1h", "1d" or milliseconds; fires every timer that falls due. */
  advanceClock(duration: string | number): Promise<ClockMove>;
  /** Moves the clock forward to this instant (RFC 3339, epoch ms or a Date). */
  setClockTime(time: string | number | Date): Promise<ClockMove>;
  /** `projects/P/topics/T`. */
  topic(name: string): Promise<TopicInfo>;
  /** `projects/P/subscriptions/S`: configuration, backlog, counters. */
  subscription(name: string): Promise<SubscriptionInfo>;
  /** Messages handed out and not yet acked, with their deadlines (default 100, at most 10,000). */
  leases(subscription: string, limit?: number): Promise<{ outstanding: number; leases: Lease[] }>;
  /** A peek at messages waiting for delivery; nothing is leased (default 10, at most 1,000). */
  messages(subscription: string, limit?: number): Promise<{ waiting: number; messages: WaitingMessage[] }>;
  /** A message's deliveries, acks, nacks and expiries; needs `messageHistory`. */
  message(id: string): Promise<Record<string, unknown>>;
  /** Stops serving (calls in flight get a moment to finish); resolves once the port is closed. */
  stop(): Promise<void>;
}

/** A refused operator call: `code` is the gRPC status name ("NOT_FOUND", "INVALID_ARGUMENT", …). */
export declare class EmulatorError extends Error {
  readonly code: string;
  constructor(code: string, message: string);
}

/** Resolves once the emulator serves. */
export declare function start(options?: StartOptions): Promise<Emulator>;

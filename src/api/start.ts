/**
 * The test API in process (Bun): start() runs the emulator in the caller's process, as Go's
 * pstest does, and its methods call the operator API's functions directly (no HTTP).
 */
import type { ClockMove, ClockState, Emulator as ApiEmulator, StartOptions } from "../../lib/index.d.ts";
import { advanceClock, clockState, setClockMode, setClockTime } from "../admin/clock.ts";
import { LEASES_LIMIT, PEEK_LIMIT, leasesOf, messageRecord, subscriptionSummary, topicSummary, waitingOf } from "../admin/inspect.ts";
import { resetEmulator } from "../admin/operator.ts";
import { clientAddress } from "../cli/address.ts";
import { loadConfig } from "../runtime/config.ts";
import { setLogFormat, setLogLevel } from "../runtime/log.ts";
import { startConfigured } from "../server/configured.ts";
import { EmulatorError, asEmulatorError } from "./errors.ts";
import { limitOf, projectName, resourceName } from "./names.ts";
import { optionsToArgs } from "./options.ts";

/** The answers as JSON would carry them, so they equal the child process's field for field. */
const plain = <T>(v: unknown): T => JSON.parse(JSON.stringify(v)) as T;

export async function start(options?: StartOptions): Promise<ApiEmulator> {
  // Environment variables are left out: a PUBSUB_* set for another emulator must not leak in.
  const config = loadConfig(optionsToArgs(options), {});
  setLogLevel(config.logLevel);
  setLogFormat(config.logFormat);
  const emu = await startConfigured(config);
  const ops = emu.operator;
  let stopping: Promise<void> | undefined;
  const call = async <T>(fn: () => unknown): Promise<T> => {
    if (stopping) throw new EmulatorError("FAILED_PRECONDITION", "the emulator is stopped");
    try {
      return plain<T>(fn());
    } catch (e) {
      throw asEmulatorError(e);
    }
  };
  const host = clientAddress({ host: config.host, port: emu.port }, "127.0.0.1");
  const stop = () => (stopping ??= emu.stop());
  return {
    host,
    port: emu.port,
    env: { PUBSUB_EMULATOR_HOST: host, ...(config.project && { PUBSUB_PROJECT_ID: config.project }) },
    mode: "in-process",
    pid: process.pid,
    reset: (project) => call(() => resetEmulator(ops, project === undefined ? undefined : projectName(project))),
    clock: () => call<ClockState>(() => clockState(ops.clock)),
    setClockMode: (mode) => call<ClockState>(() => setClockMode(ops.clock, mode)),
    advanceClock: (duration) => call<ClockMove>(() => advanceClock(ops.clock, duration)),
    setClockTime: (time) => call<ClockMove>(() => setClockTime(ops.clock, time instanceof Date ? time.getTime() : time)),
    topic: (name) => call(() => topicSummary(ops, resourceName("topics", name))),
    subscription: (name) => call(() => subscriptionSummary(ops, resourceName("subscriptions", name))),
    leases: (name, limit) => call(() => leasesOf(ops.broker, resourceName("subscriptions", name), limitOf(limit, LEASES_LIMIT))),
    messages: (name, limit) => call(() => waitingOf(ops.broker, resourceName("subscriptions", name), limitOf(limit, PEEK_LIMIT))),
    message: (id) => call(() => messageRecord(ops, String(id))),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

"use strict";
/**
 * The test API under Node (and any runtime without the "bun" export condition): start() runs
 * src/api/child.ts on the package's Bun, reads its ready line, and answers the same methods as the
 * in-process API through the operator HTTP API on the emulator's port. The child holds our end of
 * its stdin; when this process exits or is killed, the pipe closes and the child stops.
 */
const { spawn } = require("node:child_process");
const http = require("node:http");
const { join } = require("node:path");
const { PACKAGE_ROOT, bunPath, missingBun } = require("./bun.cjs");

const READY = /\[pubsub\] INFO: Server started, listening on (\d+)/;
/** What is kept of the child's output for an error message. */
const MAX_OUTPUT = 16 * 1024;
const DEFAULT_START_TIMEOUT_MS = 30_000;
/** Longest an operator call may take; the emulator answers them at once. */
const CALL_TIMEOUT_MS = 30_000;
/** Longest stop() waits for the child to exit before killing it. */
const STOP_TIMEOUT_MS = 10_000;

class EmulatorError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "EmulatorError";
    this.code = code;
  }
}

function resourcePath(kind, name) {
  const m = typeof name === "string" ? new RegExp(`^projects/([^/]{1,100})/${kind}/([^/]{1,255})$`).exec(name) : null;
  if (!m) throw new EmulatorError("INVALID_ARGUMENT", `name must be projects/PROJECT/${kind}/ID (got ${JSON.stringify(String(name).slice(0, 100))})`);
  return `/emulator/v1/projects/${encodeURIComponent(m[1])}/${kind}/${encodeURIComponent(m[2])}`;
}

function projectPath(project) {
  if (typeof project !== "string" || !/^[^/]{1,100}$/.test(project)) throw new EmulatorError("INVALID_ARGUMENT", 'project must be a project id such as "my-project"');
  return `/emulator/v1/projects/${encodeURIComponent(project)}`;
}

function limitQuery(limit) {
  if (limit === undefined) return "";
  if (typeof limit !== "number" || !Number.isInteger(limit)) throw new EmulatorError("INVALID_ARGUMENT", "limit must be an integer");
  return `?limit=${limit}`;
}

/** One operator API call; a fresh connection each time, so nothing keeps the caller's event loop alive. */
function request(hostname, port, method, path, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: hostname,
        port,
        method,
        path,
        agent: false,
        timeout: CALL_TIMEOUT_MS,
        headers: { "x-emulator-admin": "1", ...(payload && { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          let parsed;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            return reject(new EmulatorError("INTERNAL", `${method} ${path}: answered ${res.statusCode} without JSON`));
          }
          if (res.statusCode >= 200 && res.statusCode < 300) return resolve(parsed);
          const error = parsed && parsed.error ? parsed.error : {};
          reject(new EmulatorError(String(error.status || "UNKNOWN"), String(error.message || `answered ${res.statusCode}`)));
        });
      },
    );
    req.on("timeout", () => req.destroy(new EmulatorError("DEADLINE_EXCEEDED", `${method} ${path}: no answer within ${CALL_TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** Spawns the child and resolves with its port once it prints the ready line. */
function spawnChild(options) {
  const timeoutMs = options && typeof options.startTimeoutMs === "number" ? options.startTimeoutMs : DEFAULT_START_TIMEOUT_MS;
  const bun = bunPath();
  const child = spawn(bun, [join(PACKAGE_ROOT, "src", "api", "child.ts"), JSON.stringify(options ?? {})], {
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk).slice(-MAX_OUTPUT);
  };
  return new Promise((resolve, reject) => {
    let ready = false;
    const fail = (message) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(message));
    };
    const timer = setTimeout(() => fail(`pubsub-emulator: not ready within ${timeoutMs} ms; output:\n${output}`), timeoutMs);
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      if (ready) return void process.stdout.write(chunk);
      keep(chunk);
      const m = READY.exec(output);
      if (!m) return;
      ready = true;
      clearTimeout(timer);
      // From now on only the caller's own work keeps its event loop alive (a forgotten stop() must
      // not hang a test runner); the child still goes when we do.
      for (const s of [child, child.stdin, child.stdout, child.stderr]) if (typeof s.unref === "function") s.unref();
      resolve({ child, port: Number(m[1]) });
    });
    child.stderr.on("data", (chunk) => (ready ? process.stderr.write(chunk) : keep(chunk)));
    child.on("error", (e) => fail(e.code === "ENOENT" ? missingBun(bun) : `pubsub-emulator: ${e.message}`));
    child.on("exit", (code, signal) => {
      if (!ready) fail(`pubsub-emulator exited (${signal ?? code}) before it was ready:\n${output.trim()}`);
    });
    // The lifeline: held open, never written, never ended until stop().
    child.stdin.on("error", () => {});
  });
}

/** Where a client on this machine reaches the listening address, as src/cli/address.ts has it: a wildcard is 127.0.0.1. */
function clientHost(options) {
  const listen = options && typeof options.host === "string" ? options.host : "127.0.0.1";
  return ["0.0.0.0", "::", ""].includes(listen) ? "127.0.0.1" : listen;
}

async function start(options) {
  const { child, port } = await spawnChild(options);
  const callHost = clientHost(options);
  const host = `${callHost.includes(":") ? `[${callHost}]` : callHost}:${port}`;
  const call = (method, path, body) => (stopping ? Promise.reject(new EmulatorError("FAILED_PRECONDITION", "the emulator is stopped")) : request(callHost, port, method, path, body));
  const sync = (fn) => {
    try {
      return fn();
    } catch (e) {
      return Promise.reject(e);
    }
  };
  let stopping;
  const stop = () =>
    (stopping ??= new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.ref();
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.stdin.end();
    }));
  const project = options && typeof options.project === "string" && options.project ? options.project : undefined;
  return {
    host,
    port,
    env: { PUBSUB_EMULATOR_HOST: host, ...(project && { PUBSUB_PROJECT_ID: project }) },
    mode: "child-process",
    pid: child.pid,
    reset: (p) => sync(() => call("POST", p === undefined ? "/emulator/v1/reset" : `${projectPath(p)}/reset`)),
    clock: () => call("GET", "/emulator/v1/clock"),
    setClockMode: (mode) => call("POST", "/emulator/v1/clock/mode", { mode }),
    advanceClock: (duration) => call("POST", "/emulator/v1/clock/advance", { duration }),
    setClockTime: (time) => call("POST", "/emulator/v1/clock/set", { time: time instanceof Date ? time.getTime() : time }),
    topic: (name) => sync(() => call("GET", resourcePath("topics", name))),
    subscription: (name) => sync(() => call("GET", resourcePath("subscriptions", name))),
    leases: (name, limit) => sync(() => call("GET", `${resourcePath("subscriptions", name)}/leases${limitQuery(limit)}`)),
    messages: (name, limit) => sync(() => call("GET", `${resourcePath("subscriptions", name)}/messages${limitQuery(limit)}`)),
    message: (id) => call("GET", `/emulator/v1/messages/${encodeURIComponent(String(id))}`),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

exports.start = start;
exports.EmulatorError = EmulatorError;

/**
 * --log-format json (and PUBSUB_LOG_FORMAT): every line the process prints is one JSON object with
 * Cloud Logging's severity, message and RFC 3339 time, plus its context; the started line keeps
 * its exact text in `message`, so the patterns the Testcontainers modules wait for still match
 * the line. Text stays the default.
 */
import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { resolve } from "node:path";
import { log, setLogFormat, setLogLevel } from "../../src/runtime/log.ts";
import { runMain } from "../helpers/server-process.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PUBSUB_")));
const SEVERITIES = ["DEBUG", "INFO", "WARNING", "ERROR"];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const READY = /^\[pubsub\] INFO: Server started, listening on (\d+)$/;

/** The wait strategies of the Testcontainers gcloud modules, as each applies its pattern to a log line. */
const TESTCONTAINERS: Record<string, (line: string) => boolean> = {
  // Java: LogMessageWaitStrategy's regex must match the whole line.
  java: (line) => /^(?:[\s\S]*started[\s\S]*)$/.test(line),
  node: (line) => /Server started/.test(line),
  python: (line) => /Server started, listening on \d+/.test(line),
  go: (line) => line.includes("started"),
};

/** Runs main.ts until its started line (bounded), then SIGTERM; every line it printed, by stream. */
async function runJson(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn([process.execPath, MAIN, ...args, "--host-port", "127.0.0.1:0"], { env: { ...ENV, ...env }, stdout: "pipe", stderr: "pipe" });
  const killer = setTimeout(() => p.kill("SIGKILL"), 10_000);
  const reader = p.stdout.getReader();
  let stdout = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += new TextDecoder().decode(value);
    if (stdout.includes("Server started")) break;
  }
  p.kill("SIGTERM");
  const rest = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      stdout += new TextDecoder().decode(value);
    }
  })();
  const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited, rest]);
  clearTimeout(killer);
  const lines = (s: string) => s.split("\n").filter((l) => l !== "");
  return { code, stdout: lines(stdout), stderr: lines(stderr) };
}

function parsed(line: string): Record<string, unknown> {
  const entry = JSON.parse(line);
  expect(SEVERITIES).toContain(entry.severity);
  expect(typeof entry.message).toBe("string");
  expect(entry.time).toMatch(RFC3339);
  expect(Math.abs(Date.parse(entry.time) - Date.now())).toBeLessThan(60_000);
  return entry;
}

describe("a process started with --log-format json", () => {
  test("prints only JSON lines; the started line is found by each Testcontainers pattern", async () => {
    const r = await runJson(["--log-format", "json", "--project", "p1"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([]);
    const entries = r.stdout.map(parsed);
    const ready = entries.find((e) => READY.test(String(e.message)))!;
    expect(ready).toMatchObject({ severity: "INFO", host: "127.0.0.1", grpcServer: "raw" });
    expect(ready.port).toBe(Number(READY.exec(String(ready.message))![1]));
    const line = r.stdout[entries.indexOf(ready)]!;
    for (const [module, waits] of Object.entries(TESTCONTAINERS)) expect({ module, matched: waits(line) }).toEqual({ module, matched: true });
    expect(entries).toContainEqual(expect.objectContaining({ message: "project p1 (every project is served)", project: "p1" }));
    expect(entries).toContainEqual(expect.objectContaining({ message: "SIGTERM: shutting down", signal: "SIGTERM" }));
  }, 30_000);

  test("PUBSUB_LOG_FORMAT=json does the same; a warning is a WARNING line on stderr", async () => {
    // gcloud's command line with a flag it ignores, for the warning.
    const r = await runJson("gcloud beta emulators pubsub start --account=someone".split(" "), { PUBSUB_LOG_FORMAT: "json" });
    expect(r.code).toBe(0);
    expect(r.stdout.map(parsed).some((e) => READY.test(String(e.message)))).toBe(true);
    const warnings = r.stderr.map(parsed);
    expect(warnings).toContainEqual(expect.objectContaining({ severity: "WARNING", message: expect.stringContaining("ignoring gcloud flag --account") }));
  }, 30_000);

  test("an error is an ERROR line on stderr, and the exit code says so", async () => {
    const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const { stderr, code } = await runMain(["--host-port", `127.0.0.1:${taken.port}`, "--log-format", "json"]);
    taken.stop(true);
    expect(code).toBe(1);
    const entry = parsed(stderr.trim().split("\n").at(-1)!);
    expect(entry).toMatchObject({ severity: "ERROR", message: expect.stringContaining(`cannot listen on 127.0.0.1:${taken.port}`) });
  }, 30_000);

  test("--help lists the flag and its env var", async () => {
    const { stdout: help, code } = await runMain(["--help"]);
    expect(code).toBe(0);
    expect(help).toMatch(/--log-format\n\s+text, or json: .*\n\s+env PUBSUB_LOG_FORMAT/);
  });

  test("text stays the default: the started line as the gcloud emulator prints it", async () => {
    const r = await runJson([]);
    expect(r.stdout[0]).toMatch(READY);
  }, 30_000);
});

describe("the JSON line", () => {
  // In-process emulators of other files in this process set the level to silent; so do we, after.
  beforeEach(() => setLogLevel("info"));
  afterEach(() => {
    setLogFormat("text");
    setLogLevel("silent");
  });

  test("an error's stack is stack_trace, other values detail; newlines stay inside the one line", () => {
    const err = spyOn(console, "error").mockImplementation(() => {});
    try {
      setLogFormat("json");
      log.error("two\nlines", new Error("boom"), { file: "/x", n: 3 }, [1, 2]);
      expect(err).toHaveBeenCalledTimes(1);
      const line = String(err.mock.calls[0]![0]);
      expect(line).not.toContain("\n");
      const entry = parsed(line);
      expect(entry).toMatchObject({ severity: "ERROR", message: "two\nlines", error: "boom", file: "/x", n: 3, detail: "[ 1, 2 ]" });
      expect(String(entry.stack_trace)).toContain("Error: boom");
    } finally {
      err.mockRestore();
    }
  });

  test("context fields never replace severity, message or time", () => {
    const out = spyOn(console, "log").mockImplementation(() => {});
    try {
      setLogFormat("json");
      log.info("hello", { severity: "DEBUG", message: "x", time: "never", port: 1 });
      expect(parsed(String(out.mock.calls[0]![0]))).toMatchObject({ severity: "INFO", message: "hello", port: 1 });
    } finally {
      out.mockRestore();
    }
  });
});

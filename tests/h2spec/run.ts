/**
 * h2spec (HTTP/2 conformance, `--strict`, h2c prior knowledge) against each `--grpc-server`, as
 * .ci/h2spec runs it: `bun tests/h2spec/run.ts [server…]`. Each server is a fresh process on a
 * free loopback port. The default server (raw) must pass at least MIN_RAW_PASSED of 146 and fail
 * none, and each case it skips must pass when run again on `/health` (the skips need a response
 * body of 5 bytes or more; `GET /` answers the gcloud emulator's 3-byte "Ok\n"). The two on Bun's
 * node:http2 must fail exactly the cases listed below (their causes are in docs/http2.md), so a
 * change either way is seen. Prints one line per server and a last line
 * `h2spec: N passed, M failed` (M counts the servers that missed their expectation); exits 1 then.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../helpers/server-process.ts";

const H2SPEC = process.env.H2SPEC ?? "h2spec";
const MIN_RAW_PASSED = 145;
/** One h2spec run; every case has a 2 s timeout, so a run that hangs is cut off here. */
const RUN_LIMIT_MS = 240_000;

/** Bun's node:http2 (1.4.5): the cases lean and grpc-js fail, as "package/index". */
const NODE_HTTP2_FAILS = [
  "http2/5.1/1", // DATA on an idle stream: RST_STREAM, not a connection error
  "http2/5.1/3", // WINDOW_UPDATE on an idle stream: ignored
  "http2/5.1/8", // DATA after the client's RST_STREAM: ignored
  "http2/5.1/11", // DATA on a closed stream: ignored
  "http2/5.1/12", // HEADERS on a closed stream: served again
  "http2/5.1.1/2", // a stream id lower than the last: served
  "http2/5.3.1/1", // HEADERS depending on itself: served
  "http2/5.3.1/2", // PRIORITY depending on itself: ignored
  "http2/6.7/2", // an unsolicited PING ACK: GOAWAY INTERNAL_ERROR
];
/**
 * node:http2's answers to frames on half-closed and closed streams (section 5.1) depend on timing:
 * HEADERS on a half-closed (remote) stream (5.1/6, 5 of 30 alone), DATA on one (5.1/5) or on a
 * closed stream (5.1/9) fail in some runs on a loaded host — sometimes an error, sometimes none
 * within h2spec's 2 s. Any other 5.1 case of those servers may do the same: the section is listed,
 * not gated, for them (raw is gated on every case). 6.1/2 is the same DATA on a half-closed
 * (remote) stream, asked from the DATA section (grpc-js: 5 of 20 alone while a CI run shared the host).
 */
const NODE_HTTP2_FLAKY = (c: string) => c.startsWith("http2/5.1/") || c === "http2/6.1/2";
/** grpc-js answers `GET /` itself, with no body: the cases that need a DATA frame fail (four more are skipped). */
const GRPC_JS_FAILS = ["generic/2/2", "generic/2/3"];
const EXPECTED: Record<string, { fails: string[]; flaky: (c: string) => boolean } | { minPassed: number }> = {
  raw: { minPassed: MIN_RAW_PASSED },
  lean: { fails: NODE_HTTP2_FAILS, flaky: NODE_HTTP2_FLAKY },
  "grpc-js": { fails: [...GRPC_JS_FAILS, ...NODE_HTTP2_FAILS], flaky: NODE_HTTP2_FLAKY },
};

interface Result {
  passed: number;
  skipped: string[];
  failed: string[];
  /** Skipped cases run again with `--path /health`, and whether each passed. */
  rerun: Map<string, boolean>;
}

/** The JUnit report: each case named by its group and its place in it (h2spec's own numbering). */
function parse(xml: string): Result {
  const out: Result = { passed: 0, skipped: [], failed: [], rerun: new Map() };
  const index = new Map<string, number>();
  const cases = xml.matchAll(/<testcase package="([^"]*)" classname="[^"]*" time="[^"]*">([\s\S]*?)<\/testcase>/g);
  for (const [, group, body] of cases) {
    const n = (index.get(group!) ?? 0) + 1;
    index.set(group!, n);
    const name = `${group}/${n}`;
    if (body!.includes("<skipped")) out.skipped.push(name);
    else if (body!.includes("<failure") || body!.includes("<error")) out.failed.push(name);
    else out.passed++;
  }
  return out;
}

/** One h2spec process: its summary line's counts. */
async function h2spec(args: string[]): Promise<{ line: string; passed: number; failed: number }> {
  const p = Bun.spawn([H2SPEC, "--strict", "-h", "127.0.0.1", ...args], { stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill("SIGKILL"), RUN_LIMIT_MS);
  const [text] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  clearTimeout(timer);
  const summary = /(\d+) tests, (\d+) passed, (\d+) skipped, (\d+) failed/.exec(text);
  if (!summary) throw new Error(`h2spec ${args.join(" ")} printed no summary:\n${text.slice(-2000)}`);
  return { line: summary[0], passed: Number(summary[2]), failed: Number(summary[4]) };
}

async function run(server: string, dir: string): Promise<Result> {
  const emu = await spawnServer(["--grpc-server", server]);
  const report = join(dir, `${server}.xml`);
  try {
    const all = await h2spec(["-p", String(emu.port), "-j", report]);
    const r = parse(readFileSync(report, "latin1"));
    if (r.passed !== all.passed) throw new Error(`the report of ${server} counts ${r.passed} passed, h2spec printed ${all.line}`);
    if (server === "raw") {
      for (const c of r.skipped) {
        const one = await h2spec(["-p", String(emu.port), "--path", "/health", c]);
        r.rerun.set(c, one.passed === 1 && one.failed === 0);
      }
    }
    return r;
  } finally {
    await emu.stop();
  }
}

/** What is wrong with a server's result, or null. */
function judge(server: string, r: Result): string | null {
  const want = EXPECTED[server]!;
  if ("minPassed" in want) {
    if (r.failed.length > 0 || r.passed < want.minPassed) return `wanted ≥ ${want.minPassed} passed and none failed`;
    const stillFailing = r.skipped.filter((c) => !r.rerun.get(c));
    return stillFailing.length ? `skipped cases that fail on /health too: ${stillFailing.join(" ")}` : null;
  }
  const extra = r.failed.filter((c) => !want.fails.includes(c) && !want.flaky(c));
  const gone = want.fails.filter((c) => !r.failed.includes(c) && !want.flaky(c));
  if (extra.length === 0 && gone.length === 0) return null;
  return `failing cases changed: new ${extra.join(" ") || "none"}; now passing ${gone.join(" ") || "none"} (update tests/h2spec/run.ts and docs/http2.md)`;
}

const servers = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(EXPECTED);
const dir = mkdtempSync(join(tmpdir(), "h2spec-"));
let passed = 0;
let failed = 0;
try {
  for (const server of servers) {
    if (!(server in EXPECTED)) throw new Error(`unknown server ${server}`);
    const r = await run(server, dir);
    const wrong = judge(server, r);
    console.log(`${server}: ${r.passed} passed of 146; failed: ${r.failed.join(" ") || "none"}; skipped: ${r.skipped.map((c) => (r.rerun.has(c) ? `${c} (on /health: ${r.rerun.get(c) ? "passed" : "FAILED"})` : c)).join(" ") || "none"}${wrong ? ` — FAIL: ${wrong}` : ""}`);
    if (wrong) failed++;
    else passed++;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`h2spec: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

/**
 * Seeded fuzzing of the shared port's byte stream: random bytes, malformed and hostile HTTP/1.1
 * requests, and HTTP/2 prefaces followed by random frames. Every connection must be closed
 * within a bound (an HTTP/1 one perhaps after an answer, never a 5xx) — except one that became a
 * live HTTP/2 session (the server answered with frames), whose lifetime is the HTTP/2 server's,
 * as a healthy idle gRPC connection's is. The server must still serve HTTP and gRPC afterwards.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as net from "node:net";
import { startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { grpcClients } from "../helpers/raw-grpc.ts";
import { HOSTILE_STRINGS, rng, type Rng, internalErrorsSinceStart, fuzzSeed, FUZZ_CASES } from "./generators.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

const SEED = fuzzSeed(20261122);
const CASES = FUZZ_CASES;
const HANDSHAKE_MS = 300;
/** A connection must have been answered or closed by then. */
const BOUND_MS = 4000;
const PARALLEL = 16;
const MAGIC = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

forEachGrpcServer((grpcServer) => {
  /** Other test files in this process may have counted theirs: only this file's count matters. */
  const newInternalErrors = internalErrorsSinceStart();

  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer, handshakeTimeoutMs: HANDSHAKE_MS });
  });
  afterAll(() => emu.close());

  const METHODS = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "PRI", "G\u0000T", "get", "CONNECT", "TRACE", "X".repeat(300)];
  const PATHS = ["/", "/health", "/metrics", "/reset", "/v1/projects/p/topics/t", "*", "//", "/%00", "/%ZZ", "/?a=1&a=2", "/\u00e9", "http://x/", "/..%2f..%2f"];

  function httpRequest(r: Rng): Buffer {
    const method = r.pick(METHODS);
    const path = r.int(3) === 0 ? `/${encodeURIComponent(r.pick(HOSTILE_STRINGS).slice(0, 3000))}` : r.pick(PATHS);
    const headers = [`Host: ${r.pick(["x", "", "a".repeat(9000)])}`];
    for (let i = 0, n = r.int(6); i < n; i++) headers.push(`${r.pick(["X-A", "Content-Length", "Transfer-Encoding", "Connection", "Expect", "\u0000", ":path"])}: ${r.pick(["1", "-1", "chunked", "close", "100-continue", "99999999999", "\r\n\r\n", r.pick(HOSTILE_STRINGS).slice(0, 500)])}`);
    if (r.int(10) === 0) headers.push(`X-Big: ${"b".repeat(70_000)}`);
    const body = r.int(2) ? r.bytes(r.int(300)) : Buffer.alloc(0);
    const version = r.pick(["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9", ""]);
    const end = r.int(5) === 0 ? "\r\n" : "\r\n\r\n"; // sometimes the headers never end
    return Buffer.concat([Buffer.from(`${method} ${path} ${version}\r\n${headers.join("\r\n")}${end}`, "utf8"), body]);
  }

  function http2Frames(r: Rng): Buffer {
    const frames: Buffer[] = [MAGIC];
    if (r.int(2)) frames.push(Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]));
    for (let i = 0, n = 1 + r.int(5); i < n; i++) {
      const payload = r.bytes(r.int(64));
      const header = Buffer.from([0, 0, payload.length, r.int(12), r.int(256), r.int(2) ? 0 : 0x7f, 0xff, 0xff, r.int(256)]);
      frames.push(header, payload);
    }
    return Buffer.concat(frames);
  }

  /**
   * Sends `bytes` (in random pieces) and reports whether the server closed the connection within
   * the bound, and what it answered. With `liveAfterMs`, a connection the server answers with
   * HTTP/2 frames and keeps open that long after the last byte is reported at once as open.
   */
  function exchange(r: Rng, bytes: Buffer, liveAfterMs?: number): Promise<{ closed: boolean; head: string }> {
    const cuts = [0, ...Array.from({ length: r.int(3) }, () => r.int(bytes.length + 1)).sort((a, b) => a - b), bytes.length];
    return new Promise((resolve) => {
      let head = "";
      const s = net.connect(emu.port, "127.0.0.1", async () => {
        for (let i = 0; i + 1 < cuts.length && !s.destroyed; i++) {
          s.write(bytes.subarray(cuts[i], cuts[i + 1]));
          await new Promise((res) => setTimeout(res, r.int(20)));
        }
        if (liveAfterMs === undefined) return;
        await new Promise((res) => setTimeout(res, liveAfterMs));
        if (!s.destroyed && head && !head.startsWith("HTTP/")) (clearTimeout(bound), s.destroy(), resolve({ closed: false, head }));
      });
      s.on("data", (d) => (head += head.length < 64 ? d.toString("latin1", 0, 64) : ""));
      s.on("error", () => {});
      const bound = setTimeout(() => (s.destroy(), resolve({ closed: false, head })), BOUND_MS);
      s.on("close", () => (clearTimeout(bound), resolve({ closed: true, head })));
    });
  }

  test(`the shared port answers or closes every hostile connection within ${BOUND_MS} ms, never with a 5xx (seed ${SEED})`, async () => {
    const r = rng(SEED);
    const kinds = { random: () => r.bytes(1 + r.int(512)), http: () => httpRequest(r), http2: () => http2Frames(r) };
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    const jobs = Object.entries(kinds).flatMap(([kind, make]) =>
      Array.from({ length: CASES }, (_, i) => {
        const bytes = make();
        return async () => {
          const o = await exchange(r, bytes, kind === "http2" ? HANDSHAKE_MS * 2 : undefined);
          const answer = o.head.startsWith("HTTP/") ? o.head.slice(0, 12) : o.head ? "h2-frames" : "closed-silently";
          counts[answer] = (counts[answer] ?? 0) + 1;
          const liveHttp2 = kind === "http2" && answer === "h2-frames";
          if ((!o.closed && !liveHttp2) || /^HTTP\/1\.[01] 5/.test(o.head)) failures.push(`${kind} #${i}: ${o.closed ? o.head.slice(0, 40) : "held open"} (${bytes.subarray(0, 80).toString("base64")})`);
        };
      }),
    );
    for (let i = 0; i < jobs.length; i += PARALLEL) await Promise.all(jobs.slice(i, i + PARALLEL).map((j) => j()));
    console.log(`http fuzz (seed ${SEED}): ${jobs.length} connections; answers ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(newInternalErrors()).toBe(0);
  }, 120_000);

  test("afterwards HTTP and gRPC are served as usual", async () => {
    const res = await fetch(`http://${emu.endpoint}/health`);
    expect(await res.json()).toEqual({ status: "ok" });
    const metrics = await (await fetch(`http://${emu.endpoint}/metrics.json`)).json();
    expect(newInternalErrors(metrics.internalErrors)).toBe(0);
    const c = grpcClients(emu.endpoint);
    const name = `projects/p/topics/${unique("after")}`;
    expect((await c.call(c.publisher, "CreateTopic", { name })).name).toBe(name);
    c.close();
  });
});

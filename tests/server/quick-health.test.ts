/**
 * Health probes answered on the raw front (src/server/quick-health.ts): only the plainest GET/HEAD
 * of /health or / qualify, with the bytes the HTTP server sends; anything else goes to the relay.
 * The last test compares both answers byte for byte (Date aside) on a running server.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as net from "node:net";
import { quickHealth } from "../../src/server/quick-health.ts";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";

const req = (s: string) => Buffer.from(s.replace(/\n/g, "\r\n"), "latin1");
const text = (q: ReturnType<typeof quickHealth>) => (typeof q === "string" ? q : q.reply.toString("latin1"));

test("GET /health over HTTP/1.1 keeps the connection; the body is the admin API's", () => {
  const q = quickHealth(req("GET /health HTTP/1.1\nHost: x\n\n"));
  expect(typeof q).toBe("object");
  if (typeof q === "string") return;
  expect(q.close).toBe(false);
  expect(text(q)).toStartWith("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 15\r\ncache-control: no-store\r\n");
  expect(text(q)).toContain("Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n");
  expect(text(q)).toEndWith('\r\n\r\n{"status":"ok"}');
  expect(q.rest.length).toBe(0);
});

test("HEAD has no body; HTTP/1.0 or Connection: close closes; GET / answers Ok", () => {
  const head = quickHealth(req("HEAD /health HTTP/1.0\n\n"));
  expect(typeof head !== "string" && head.close).toBe(true);
  expect(text(head)).toEndWith("Connection: close\r\n\r\n");
  const closing = quickHealth(req("GET / HTTP/1.1\nConnection: close\n\n"));
  expect(typeof closing !== "string" && closing.close).toBe(true);
  expect(text(closing)).toEndWith("Content-Length: 3\r\n\r\nOk\n");
  const keep10 = quickHealth(req("GET / HTTP/1.0\nConnection: keep-alive\n\n"));
  expect(typeof keep10 !== "string" && keep10.close).toBe(false);
});

test("a pipelined request after a probe is handed back whole", () => {
  const q = quickHealth(req("GET /health HTTP/1.1\n\nGET /v1/projects/p/topics HTTP/1.1\n\n"));
  expect(typeof q !== "string" && q.rest.toString("latin1")).toBe("GET /v1/projects/p/topics HTTP/1.1\r\n\r\n");
});

test("anything else, or anything odd, is relayed; an incomplete probe waits", () => {
  for (const r of [
    "GET /healthz HTTP/1.1\n\n",
    "GET /health?x=1 HTTP/1.1\n\n",
    "POST /health HTTP/1.1\n\n",
    "GET /health HTTP/2.0\n\n",
    "GET /health HTTP/1.1\nContent-Length: 3\n\nabc",
    "GET /health HTTP/1.1\nTransfer-Encoding: chunked\n\n",
    "GET /health HTTP/1.1\nExpect: 100-continue\n\n",
    "GET /health HTTP/1.1\nX: a\n folded\n\n",
    "GET /health HTTP/1.1\nX: \u00e9\n\n",
    "PUT /v1/projects/p/topics/t HTTP/1.1\n",
    "get /health HTTP/1.1\n\n",
  ]) {
    expect([r, quickHealth(req(r))]).toEqual([r, "relay"]);
  }
  expect(quickHealth(req("GET /heal"))).toBe("wait");
  expect(quickHealth(req("HEA"))).toBe("wait");
  expect(quickHealth(req("GET /health HTTP/1.1\nHost: x\n"))).toBe("wait");
  expect(quickHealth(Buffer.concat([req("GET /health HTTP/1.1\nX: "), Buffer.alloc(9000, 0x61)]))).toBe("relay");
});

test("a line ended by a bare LF is relayed at once (the HTTP server refuses it), not waited on", () => {
  const raw = (t: string) => quickHealth(Buffer.from(t, "latin1"));
  expect(raw("GET / HTTP/1.1\nHost: x\n\n")).toBe("relay");
  expect(raw("GET /health HTTP/1.1\r\nHost: x\n\n")).toBe("relay");
  expect(raw("GET /health HTTP/1.1\n")).toBe("relay");
});

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ grpcServer: "raw" });
});
afterAll(() => emu.close());

/** Sends bytes (LF as CRLF unless `asIs`) on a fresh connection; resolves with what came back within `ms`. */
function exchange(bytes: string, ms = 1000, asIs = false): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(emu.port, "127.0.0.1", () => s.write(asIs ? Buffer.from(bytes, "latin1") : req(bytes)));
    let got = "";
    s.on("data", (d) => (got += d.toString("latin1")));
    s.on("error", () => {});
    const done = () => (s.destroy(), resolve(got));
    s.on("close", done);
    setTimeout(done, ms);
  });
}

test("on a running raw server, a probe on the front and the HTTP server's answer are the same bytes", async () => {
  const noDate = (s: string) => s.replace(/Date: [^\r]*\r\n/, "");
  // Answered on the front:
  const front = await exchange("GET /health HTTP/1.1\nHost: x\nConnection: close\n\n");
  // Answered by the HTTP server, through the relay (the first request is not a probe):
  const relayed = await exchange("GET /healthz HTTP/1.1\nHost: x\n\nGET /health HTTP/1.1\nHost: x\nConnection: close\n\n");
  const second = relayed.slice(relayed.indexOf("HTTP/1.1 200"));
  expect(noDate(front)).toBe(noDate(second));
  expect(front).toContain('{"status":"ok"}');
});

test("on a running raw server, requests with bare-LF line ends are answered 400 and closed, not held unanswered", async () => {
  // Before, the front waited for a CRLF CRLF until the handshake timeout and closed without a word.
  for (const r of ["GET / HTTP/1.1\nHost: x\n\n", "GET /health HTTP/1.1\nHost: x\n\n", "GET /v1/projects/p/topics HTTP/1.1\nHost: x\n\n"]) {
    expect([r, (await exchange(r, 10_000, true)).slice(0, 24)]).toEqual([r, "HTTP/1.1 400 Bad Request"]);
  }
});

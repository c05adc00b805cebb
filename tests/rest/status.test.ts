/** REST's one error mapper: every code's HTTP status, details as JSON with "@type", bugs as INTERNAL. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { PubSubError, type ErrorCode } from "../../src/core/errors.ts";
import { setLogLevel } from "../../src/runtime/log.ts";
import { restHandler } from "../../src/rest/handler.ts";
import { errorResponse } from "../../src/http/status.ts";
import type { RpcTable, UnaryRpc } from "../../src/rpc/table.ts";

const failures = new Map<string, UnaryRpc>([
  ["IAMPolicy.GetIamPolicy", () => { throw new PubSubError("UNIMPLEMENTED", "GetIamPolicy is not implemented by this emulator yet."); }],
  ["Publisher.GetTopic", () => { throw new TypeError("a bug"); }],
  ["Subscriber.Acknowledge", () => Promise.reject(new PubSubError("INVALID_ARGUMENT", "Some acknowledgement ids in the request were invalid.", [
    { kind: "ErrorInfo", reason: "EXACTLY_ONCE_ACKID_FAILURE", domain: "pubsub.googleapis.com", metadata: [["__proto__", "PERMANENT_FAILURE_INVALID_ACK_ID"], ["ack-2", "TRANSIENT_FAILURE_UNORDERED_ACK_ID"]] },
    { kind: "RetryInfo", retryDelayMs: 1500 },
  ]))],
]);
const table = { unary: failures, openStream: () => { throw new Error("no streams"); } } as unknown as RpcTable;

let server: http.Server;
let base: string;
beforeAll(async () => {
  setLogLevel("silent");
  server = http.createServer(restHandler(table));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server?.close());

const get = (method: string, path: string, body?: string) =>
  fetch(base + path, { method, body, headers: body ? { "content-type": "application/json" } : {}, signal: AbortSignal.timeout(5000) }).then(async (r) => ({
    status: r.status,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    json: (await r.json()) as any,
  }));

test("UNIMPLEMENTED is 501 in Google's format", async () => {
  const r = await get("GET", "/v1/projects/p/topics/abc:getIamPolicy");
  expect(r).toEqual({ status: 501, json: { error: { code: 501, status: "UNIMPLEMENTED", message: "GetIamPolicy is not implemented by this emulator yet." } } });
});

test("an error that is not a PubSubError is 500 INTERNAL", async () => {
  const r = await get("GET", "/v1/projects/p/topics/abc");
  expect(r.status).toBe(500);
  expect(r.json.error.status).toBe("INTERNAL");
  expect(r.json.error.message).toContain("a bug");
});

test("ErrorInfo (metadata keys are data) and RetryInfo details as proto3 JSON with @type", async () => {
  const r = await get("POST", "/v1/projects/p/subscriptions/abc:acknowledge", '{"ackIds":["x"]}');
  expect(r.status).toBe(400);
  expect(r.json.error.details).toEqual([
    {
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "EXACTLY_ONCE_ACKID_FAILURE",
      domain: "pubsub.googleapis.com",
      metadata: JSON.parse('{"__proto__": "PERMANENT_FAILURE_INVALID_ACK_ID", "ack-2": "TRANSIENT_FAILURE_UNORDERED_ACK_ID"}'),
    },
    { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1.500s" },
  ]);
});

test("every code has the HTTP status google/rpc/code.proto gives it", () => {
  const expected: Record<ErrorCode, number> = {
    INVALID_ARGUMENT: 400, FAILED_PRECONDITION: 400, NOT_FOUND: 404, ALREADY_EXISTS: 409, RESOURCE_EXHAUSTED: 429,
    UNIMPLEMENTED: 501, UNAVAILABLE: 503, CANCELLED: 499, INTERNAL: 500, ABORTED: 409, DEADLINE_EXCEEDED: 504,
    PERMISSION_DENIED: 403, UNAUTHENTICATED: 401, UNKNOWN: 500,
  };
  for (const [code, status] of Object.entries(expected)) {
    const r = errorResponse(new PubSubError(code as ErrorCode, "m"));
    expect([r.httpStatus, r.body.error.code, r.body.error.status]).toEqual([status, status, code]);
    expect(r.body.error.details).toBeUndefined();
  }
});

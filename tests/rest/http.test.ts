/** REST over HTTP/1.1 on the gRPC port: the whole resource lifecycle, errors, framing and limits. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { connect, request } from "../helpers/raw-http.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

let emu: TestEmulator;
let base: string;
beforeAll(async () => {
  emu = await startTestEmulator({ pullWaitMs: 2000 });
  base = `http://${emu.endpoint}`;
});
afterAll(async () => {
  await emu?.close();
});

const JSON_TYPE = { "content-type": "application/json" };
const topicName = () => `projects/${PROJECT}/topics/${unique("t")}`;
const subName = () => `projects/${PROJECT}/subscriptions/${unique("s")}`;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = JSON_TYPE): Promise<{ status: number; json: Obj }> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, json: (await res.json()) as Obj };
}

async function ok(method: string, path: string, body?: unknown): Promise<Obj> {
  const { status, json } = await call(method, path, body);
  expect({ status, json }).toMatchObject({ status: 200 });
  return json;
}

/** A fresh topic with one subscription on it. */
async function topicWithSub(extra: Obj = {}): Promise<[string, string]> {
  const topic = topicName();
  const sub = subName();
  await ok("PUT", `/v1/${topic}`, {});
  await ok("PUT", `/v1/${sub}`, { topic, ...extra });
  return [topic, sub];
}

describe("the resource lifecycle over REST", () => {
  test("create, publish, pull, modify, acknowledge, list, delete", async () => {
    const topic = topicName();
    const created = await ok("PUT", `/v1/${topic}`, { labels: { team: "a" }, messageRetentionDuration: "3600s" });
    expect(created).toEqual({ name: topic, labels: { team: "a" }, messageRetentionDuration: "3600s", state: "ACTIVE" });
    expect(await ok("GET", `/v1/${topic}`)).toEqual(created);

    const sub = subName();
    const s = await ok("PUT", `/v1/${sub}`, { topic, ackDeadlineSeconds: 30, retryPolicy: { minimumBackoff: "0.1s" } });
    expect(s).toMatchObject({ name: sub, topic, ackDeadlineSeconds: 30, retryPolicy: { minimumBackoff: "0.100s", maximumBackoff: "600s" } });
    expect(await ok("GET", `/v1/${topic}/subscriptions`)).toEqual({ subscriptions: [sub] });

    const data = Buffer.from([0, 1, 2, 250, 255]).toString("base64");
    const published = await ok("POST", `/v1/${topic}:publish`, {
      messages: [{ data, attributes: JSON.parse('{"__proto__": "p", "k": "v"}'), orderingKey: "" }, { attributes: { only: "attrs" } }],
    });
    expect(published.messageIds).toHaveLength(2);
    expect(published.messageIds.every((id: unknown) => typeof id === "string")).toBe(true);

    const pulled = await ok("POST", `/v1/${sub}:pull`, { maxMessages: 10 });
    expect(pulled.receivedMessages).toHaveLength(2);
    const [first, second] = pulled.receivedMessages;
    expect(first.message.data).toBe(data);
    expect(JSON.stringify(first.message.attributes)).toBe('{"__proto__":"p","k":"v"}');
    expect(first.message.messageId).toBe(published.messageIds[0]);
    expect(first.message.publishTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
    expect(first.deliveryAttempt).toBeUndefined(); // only with a dead-letter policy, as the real service
    expect(second.message.data).toBeUndefined(); // empty bytes are a default: left out
    expect(typeof first.ackId).toBe("string");

    expect(await ok("POST", `/v1/${sub}:modifyAckDeadline`, { ackIds: [second.ackId], ackDeadlineSeconds: 0 })).toEqual({});
    expect(await ok("POST", `/v1/${sub}:acknowledge`, { ackIds: [first.ackId] })).toEqual({});
    const again = await ok("POST", `/v1/${sub}:pull`, { maxMessages: 10 }); // redelivered after the 0.1 s backoff
    expect(again.receivedMessages.map((r: Obj) => r.message.messageId)).toEqual([published.messageIds[1]]);

    const patched = await ok("PATCH", `/v1/${sub}`, { subscription: { ackDeadlineSeconds: 60 }, updateMask: "ackDeadlineSeconds" });
    expect(patched.ackDeadlineSeconds).toBe(60);
    // Java's HTTP transport sends PATCH as a POST with X-HTTP-Method-Override, which Google honours.
    const overridden = await call("POST", `/v1/${sub}`, { subscription: { ackDeadlineSeconds: 70 }, updateMask: "ackDeadlineSeconds" }, { ...JSON_TYPE, "x-http-method-override": "PATCH" });
    expect(overridden.json.ackDeadlineSeconds).toBe(70);
    expect(await ok("POST", `/v1/${sub}:modifyPushConfig`, { pushConfig: {} })).toEqual({});
    expect(await ok("POST", `/v1/${sub}:detach`)).toEqual({});
    expect((await ok("GET", `/v1/${sub}`)).detached).toBe(true);
    expect(await ok("DELETE", `/v1/${sub}`)).toEqual({});
    expect(await ok("DELETE", `/v1/${topic}`)).toEqual({});
    expect((await call("GET", `/v1/${topic}`)).status).toBe(404);
  });

  test("listing pages with pageSize and pageToken query parameters", async () => {
    const project = `projects/${unique("proj")}`;
    for (let i = 0; i < 3; i++) await ok("PUT", `/v1/${project}/topics/${unique("page")}`, {});
    const first = await ok("GET", `/v1/${project}/topics?pageSize=2`);
    expect(first.topics).toHaveLength(2);
    const second = await ok("GET", `/v1/${project}/topics?pageSize=2&pageToken=${encodeURIComponent(first.nextPageToken)}`);
    expect(second.topics).toHaveLength(1);
    expect(second.nextPageToken).toBeUndefined();
  });

  test("a dead-letter subscription's deliveries carry deliveryAttempt; enums as numbers on request", async () => {
    const dlq = topicName();
    await ok("PUT", `/v1/${dlq}`, {});
    const [topic, sub] = await topicWithSub({ deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 } });
    await ok("POST", `/v1/${topic}:publish`, { messages: [{ data: "eA==" }] });
    const pulled = await ok("POST", `/v1/${sub}:pull`, { maxMessages: 1 });
    expect(pulled.receivedMessages[0].deliveryAttempt).toBe(1);
    expect((await ok("GET", `/v1/${sub}?$alt=json;enum-encoding=int`)).state).toBe(1);
    const pretty = await fetch(`${base}/v1/${sub}?prettyPrint=true`).then((r) => r.text());
    expect(pretty).toContain('\n  "name"');
  });

  test("a Pull waits for a message, and a client that goes away stops waiting", async () => {
    const [topic, sub] = await topicWithSub();
    const waiting = fetch(`${base}/v1/${sub}:pull`, { method: "POST", headers: JSON_TYPE, body: '{"maxMessages":1}' }).then((r) => r.json() as Promise<Obj>);
    await Bun.sleep(50);
    await ok("POST", `/v1/${topic}:publish`, { messages: [{ data: "d2FpdA==" }] });
    expect((await waiting).receivedMessages[0].message.data).toBe("d2FpdA==");

    const conn = await connect(emu.port);
    conn.write(request("POST", `/v1/${sub}:pull`, { maxMessages: 1 }));
    await Bun.sleep(50);
    conn.destroy();
    await Bun.sleep(50);
    await ok("POST", `/v1/${topic}:publish`, { messages: [{ data: "bGF0ZQ==" }] });
    const after = await ok("POST", `/v1/${sub}:pull`, { maxMessages: 1, returnImmediately: true });
    expect(after.receivedMessages?.[0]?.message.data).toBe("bGF0ZQ==");
  });
});

describe("errors in Google's format", () => {
  const expectError = (r: { status: number; json: Obj }, status: number, code: string, words: string) => {
    expect(r.status).toBe(status);
    expect(r.json.error.code).toBe(status);
    expect(r.json.error.status).toBe(code);
    expect(r.json.error.message).toContain(words);
  };

  test("an unknown path is 404 NOT_FOUND; the wrong method on a known path too, naming the right one", async () => {
    expectError(await call("GET", "/v1/projects/p/nothing"), 404, "NOT_FOUND", "Method not found");
    expectError(await call("GET", "/v1/projects/p/topics/abc:publish"), 404, "NOT_FOUND", "POST");
    expectError(await call("POST", "/v1/projects/p/topics/abc:explode", {}), 404, "NOT_FOUND", "Method not found");
  });

  test("the admin paths are still served beside /v1/", async () => {
    expect(await fetch(`${base}/health`).then((r) => r.json())).toEqual({ status: "ok" });
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  test("malformed JSON, a non-JSON content type, unknown fields: 400 INVALID_ARGUMENT", async () => {
    const topic = topicName();
    expectError(await call("PUT", `/v1/${topic}`, '{"labels": '), 400, "INVALID_ARGUMENT", "Invalid JSON payload");
    expectError(await call("PUT", `/v1/${topic}`, "labels=a", { "content-type": "application/x-www-form-urlencoded" }), 400, "INVALID_ARGUMENT", "application/json");
    expectError(await call("PUT", `/v1/${topic}`, "{}", { "content-type": "text/plain" }), 400, "INVALID_ARGUMENT", "Content-Type");
    const unknown = await call("PUT", `/v1/${topic}`, { labels: {}, lables: {} });
    expectError(unknown, 400, "INVALID_ARGUMENT", 'Unknown name "lables"');
    expect(unknown.json.error.details).toEqual([
      { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "", description: unknown.json.error.message }] },
    ]);
    expect((await call("GET", `/v1/${topic}`)).status).toBe(404); // nothing was created
    expect((await call("PUT", `/v1/${topic}`, "{}", { "content-type": "application/json; charset=utf-8" })).status).toBe(200);
  });

  test("messages stay bounded whatever the client sends", async () => {
    const long = "x".repeat(8000);
    const r = await call("GET", `/v1/projects/p/topics?${long}=1`);
    expectError(r, 400, "INVALID_ARGUMENT", "Cannot bind query parameter");
    expect(JSON.stringify(r.json).length).toBeLessThan(1200);
    const k = await call("PUT", `/v1/${topicName()}`, { [long]: 1 });
    expect(k.json.error.message.length).toBeLessThan(300);
    const m = await call("POST", `/v1/projects/p/topics/abc`, {}, { ...JSON_TYPE, "x-http-method-override": long });
    expectError(m, 404, "NOT_FOUND", "POST");
    expect(m.json.error.message.length).toBeLessThan(300);
  });

  test("a service error keeps its code and details", async () => {
    const [, sub] = await topicWithSub();
    const r = await call("POST", `/v1/${sub}:modifyAckDeadline`, { ackIds: ["x"], ackDeadlineSeconds: 601 });
    expectError(r, 400, "INVALID_ARGUMENT", "ack_deadline_seconds");
    expect(r.json.error.details[0]).toMatchObject({ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "ack_deadline_seconds" }] });
    expectError(await call("PUT", `/v1/${topicName().replace(/topics\/.*/, "topics/ab")}`, {}), 400, "INVALID_ARGUMENT", "name");
    const missing = topicName();
    expectError(await call("POST", `/v1/${missing}:publish`, { messages: [{ data: "eA==" }] }), 404, "NOT_FOUND", missing);
    const existing = topicName();
    await ok("PUT", `/v1/${existing}`);
    expectError(await call("PUT", `/v1/${existing}`), 409, "ALREADY_EXISTS", existing);
  });
});

describe("HTTP framing and limits", () => {
  const health = request("GET", "/health");

  test("pipelined requests on one connection are answered in order", async () => {
    const topic = topicName();
    const conn = await connect(emu.port);
    // The 404 leaves its body unread: it must be skipped, not parsed as the next request.
    conn.write(request("PUT", `/v1/${topic}`, {}) + request("GET", `/v1/${topic}`) + request("POST", "/v1/projects/p/nothing", { x: "y".repeat(5000) }) + health);
    const [created, got, missing, h] = await conn.responses(4);
    conn.destroy();
    expect([created.status, got.status, missing.status, h.status]).toEqual([200, 200, 404, 200]);
    expect(JSON.parse(got.body).name).toBe(topic);
  });

  test("a chunked request body is read whole", async () => {
    const [topic] = await topicWithSub();
    const body = JSON.stringify({ messages: [{ data: Buffer.from("chunked").toString("base64") }] });
    const conn = await connect(emu.port);
    const half = body.length >> 1;
    conn.write(`POST /v1/${topic}:publish HTTP/1.1\r\nhost: e\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    conn.write(`${half.toString(16)}\r\n${body.slice(0, half)}\r\n`);
    await Bun.sleep(20);
    conn.write(`${(body.length - half).toString(16)}\r\n${body.slice(half)}\r\n0\r\n\r\n`);
    conn.write(health);
    const [res, h] = await conn.responses(2);
    conn.destroy();
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).messageIds).toHaveLength(1);
    expect(h.status).toBe(200); // the connection stays usable
  });

  test("a declared body over 10 MiB is refused before it is sent, and the connection closed", async () => {
    const conn = await connect(emu.port);
    conn.write(`POST /v1/projects/p/topics/abc:publish HTTP/1.1\r\nhost: e\r\ncontent-type: application/json\r\ncontent-length: 20000000\r\n\r\n{"messages":`);
    const [res] = await conn.responses(1);
    expect(res.status).toBe(400);
    const error = JSON.parse(res.body).error;
    expect(error.status).toBe("INVALID_ARGUMENT");
    expect(error.message).toBe("Request payload size exceeds the limit: 10485760 bytes.");
    expect(await conn.closed()).toBe(true);
  });

  test("a chunked body is refused once it passes 10 MiB, without waiting for its end", async () => {
    const conn = await connect(emu.port);
    conn.write(`POST /v1/projects/p/topics/abc:publish HTTP/1.1\r\nhost: e\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(1 << 20, 0x20);
    for (let i = 0; i < 11; i++) conn.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]));
    const [res] = await conn.responses(1);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toContain("10485760");
    expect(await conn.closed()).toBe(true);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });

  test("a body just under the cap is served", async () => {
    const [topic] = await topicWithSub();
    const data = Buffer.alloc(7_800_000, 1).toString("base64");
    const body = JSON.stringify({ messages: [{ data }] });
    expect(body.length).toBeLessThan(10_485_760);
    expect(body.length).toBeGreaterThan(10_000_000);
    const r = await call("POST", `/v1/${topic}:publish`, body);
    expect(r.status).toBe(200);
  });
});

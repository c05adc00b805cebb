/**
 * The ai_inference transform against a tiny local model server that answers like a Vertex AI
 * endpoint (--ai-inference-endpoint), through the official Node client (its 6.x protos carry
 * MessageTransform.ai_inference, so everything goes over gRPC): the request is the message data
 * with the parameters combined in; the message delivered carries the original data and the
 * model's answer; failures (endpoint down, non-2xx, not JSON, too slow) fail the message the way
 * a failing UDF does, at publish and at delivery; order holds while the model answers out of order.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { CreateSubscriptionOptions, Topic } from "@google-cloud/pubsub";
import { clientSuite, withDeadLetters } from "../helpers/client-suite.ts";
import { unique } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";
import { inferenceRoute, loadConfig } from "../../src/runtime/config.ts";
import { HttpInferenceCaller, INFERENCE_LIMITS } from "../../src/transforms/ai-inference.ts";

const T = 20_000;
const E = "projects/p/locations/us-central1/endpoints/e";
const DOWN = "projects/p/locations/us-central1/endpoints/down";
const ERR = "projects/p/locations/us-central1/endpoints/err";
const SLOW = "projects/p/locations/us-central1/endpoints/slow";
const HUGE = "projects/p/locations/us-central1/endpoints/huge";
const TEXT = "projects/p/locations/us-central1/endpoints/text";

interface Seen {
  path: string;
  body: any;
}
const seen: Seen[] = [];
let inFlight = 0;
let maxInFlight = 0;

/** Answers like a Vertex AI rawPredict: the request echoed into predictions, after a small random delay (answers overtake each other). */
const model = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    const body = await req.json().catch(() => null);
    seen.push({ path, body });
    if (path === "/fail") return new Response(JSON.stringify({ error: { code: 500, message: "model crashed" } }), { status: 500 });
    if (path === "/text") return new Response("not json at all");
    if (path === "/slow") return new Promise<Response>(() => {}); // never answers: the timeout ends it
    if (path === "/count") {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await Bun.sleep(30);
      inFlight--;
      return Response.json({ ok: true });
    }
    if (path === "/huge") return new Response(`{"x":"${"a".repeat(10_000_001)}"}`);
    await Bun.sleep(Math.floor(Math.random() * 20));
    return Response.json({ predictions: [{ label: "greeting", n: body?.instances?.[0]?.n ?? null }], deployedModelId: "1" });
  },
});
// A port nothing listens on: a server bound then stopped.
const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
const closedPort = closed.port;
closed.stop(true);
afterAll(() => model.stop(true));

const origin = `http://127.0.0.1:${model.port}`;
const s = clientSuite({
  aiInferenceEndpoints: [origin, `${DOWN}=http://127.0.0.1:${closedPort}/predict`, `${ERR}=${origin}/fail`, `${SLOW}=${origin}/slow`, `${HUGE}=${origin}/huge`, `${TEXT}=${origin}/text`],
  aiInferenceTimeoutMs: 300,
});

const INVALID_ARGUMENT = 3;
const ai = (endpoint: string, parameters?: Record<string, unknown>) => ({
  aiInference: { endpoint, ...(parameters ? { unstructuredInference: { parameters: struct(parameters) } } : {}) },
});
/** A google.protobuf.Struct as the Node client sends it. */
function struct(o: Record<string, unknown>): { fields: Record<string, unknown> } {
  const value = (v: unknown): unknown =>
    typeof v === "number" ? { numberValue: v } : typeof v === "string" ? { stringValue: v } : typeof v === "boolean" ? { boolValue: v } : { structValue: struct(v as Record<string, unknown>) };
  return { fields: Object.fromEntries(Object.entries(o).map(([k, v]) => [k, value(v)])) };
}
const udf = (functionName: string, body: string) => ({ javascriptUdf: { functionName, code: `function ${functionName}(message, metadata) { ${body} }` } });

async function topicWith(transforms: unknown[]): Promise<Topic> {
  const [topic] = await s.ps.createTopic({ name: unique("t"), messageTransforms: transforms } as never);
  return topic;
}
const json = (o: unknown) => Buffer.from(JSON.stringify(o));
async function failure(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: number; message: string };
  }
  throw new Error("expected a failure");
}

describe("at publish (a topic's transform)", () => {
  test("the model gets the data with the parameters combined in, at Vertex AI's rawPredict path; the message carries the original data and the answer", async () => {
    const topic = await topicWith([ai(E, { temperature: 0.2, options: { mode: "fast" }, instances: "overridden by the message" })]);
    const [sub] = await topic.createSubscription(unique("s"));
    const before = seen.length;
    await topic.publishMessage({ data: json({ instances: [{ n: 7 }] }), attributes: { kept: "yes" } });
    const [m] = await receive(sub, 1);
    const request = seen.slice(before).find((r) => r.path === `/v1/${E}:rawPredict`);
    expect(request?.body).toEqual({ temperature: 0.2, options: { mode: "fast" }, instances: [{ n: 7 }] });
    expect(JSON.parse(m.data.toString())).toEqual({
      data: { instances: [{ n: 7 }] },
      inference: { predictions: [{ label: "greeting", n: 7 }], deployedModelId: "1" },
    });
    expect(m.attributes).toEqual({ kept: "yes" });
  }, T);

  test("composed in order with a UDF; ordering keys keep their order across concurrent Publish calls while answers overtake each other", async () => {
    const topic = await topicWith([udf("tag", "const o = JSON.parse(message.data); o.instances[0].tagged = true; message.data = JSON.stringify(o); return message;"), ai(E)]);
    topic.setPublishOptions({ messageOrdering: true, batching: { maxMessages: 1 } });
    const [sub] = await topic.createSubscription(unique("s"), { enableMessageOrdering: true });
    const n = 12;
    await Promise.all(Array.from({ length: n }, (_, i) => topic.publishMessage({ data: json({ instances: [{ n: i }] }), orderingKey: "k" })));
    const got = await receive(sub, n, { ms: 10_000 });
    const answers = got.map((m) => JSON.parse(m.data.toString()));
    expect(answers.map((a) => a.inference.predictions[0].n)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(answers.every((a) => a.data.instances[0].tagged === true)).toBe(true);
  }, T);

  test("endpoint down, non-2xx, an answer that is not JSON, too slow, data that is not a JSON object: the Publish fails as a failing UDF fails it", async () => {
    const cases: [string, unknown, string][] = [
      [DOWN, { instances: [] }, "could not be reached"],
      [ERR, { instances: [] }, "answered HTTP 500"],
      [SLOW, { instances: [] }, "did not answer within 300 ms"],
      [HUGE, { instances: [] }, "exceeds 10000000 bytes"],
      [TEXT, { instances: [] }, "answered something that is not JSON"],
      [E, "[1, 2]", "must be a JSON object"],
    ];
    for (const [endpoint, data, words] of cases) {
      const topic = await topicWith([ai(endpoint)]);
      const err = await failure(topic.publishMessage({ data: typeof data === "string" ? Buffer.from(data) : json(data) }));
      expect(err.code).toBe(INVALID_ARGUMENT);
      expect(err.message).toContain('Message transform "ai_inference[0]" failed on messages[0]');
      expect(err.message).toContain(words);
    }
    const odd = await topicWith([{ aiInference: { endpoint: "projects/../locations/x/endpoints/y?z" } }]);
    expect((await failure(odd.publishMessage({ data: json({}) }))).message).toContain('no --ai-inference-endpoint serves "projects/../locations/x/endpoints/y?z"');
    const text = await topicWith([{ aiInference: { endpoint: "projects/p/locations/l/endpoints/t" } }]);
    expect((await failure(text.publishMessage({ data: Buffer.from("{not json") }))).message).toContain("not JSON");
  }, T);
});

describe(":testMessageTransforms (gcloud pubsub message-transforms test)", () => {
  test("traces a UDF then the model call, each step's result in order", async () => {
    const res = await fetch(`http://${s.emu.endpoint}/v1/projects/test-project:testMessageTransforms`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        message: { data: json({ instances: [{ n: 3 }] }).toString("base64") },
        messageTransforms: { messageTransforms: [udf("same", "return message;"), { aiInference: { endpoint: E, unstructuredInference: { parameters: { p: 1 } } } }] },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    const steps = (await res.json()).transformedMessages.map((t: { transformedMessage: { data: string } }) => JSON.parse(Buffer.from(t.transformedMessage.data, "base64").toString()));
    expect(steps).toEqual([{ instances: [{ n: 3 }] }, { data: { instances: [{ n: 3 }] }, inference: { predictions: [{ label: "greeting", n: 3 }], deployedModelId: "1" } }]);
  }, T);
});

describe("at delivery (a subscription's transform)", () => {
  test("a subscription's inference transforms what it delivers; another subscription of the topic gets the original", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    const [plain] = await topic.createSubscription(unique("s"));
    const [smart] = await topic.createSubscription(unique("s"), { messageTransforms: [ai(E, { k: "v" })] } as CreateSubscriptionOptions);
    await topic.publishMessage({ data: json({ instances: [{ n: 1 }] }) });
    const [a] = await receive(plain, 1);
    expect(JSON.parse(a.data.toString())).toEqual({ instances: [{ n: 1 }] });
    const [b] = await receive(smart, 1);
    expect(JSON.parse(b.data.toString())).toEqual({ data: { instances: [{ n: 1 }] }, inference: { predictions: [{ label: "greeting", n: 1 }], deployedModelId: "1" } });
    expect(b.id).toBe(a.id);
  }, T);

  test("with the endpoint down, the original message goes to the dead-letter topic and is never delivered", async () => {
    const { topic, sub, dlqSub } = await withDeadLetters(s.ps, { messageTransforms: [ai(DOWN)] });
    // Preparing starts when a subscriber can take messages, as a subscription's UDF runs at delivery.
    const delivered = receive(sub, 1, { ms: 1500 }).then(
      () => "delivered",
      () => "none",
    );
    await topic.publishMessage({ data: json({ instances: [] }) });
    const [dead] = await receive(dlqSub, 1, { ms: 10_000 });
    expect(JSON.parse(dead.data.toString())).toEqual({ instances: [] });
    expect(dead.attributes.CloudPubSubDeadLetterSourceSubscription).toBe(sub.name.split("/").pop()!);
    expect(await delivered).toBe("none");
    const info = await (await fetch(`http://${s.emu.endpoint}/emulator/v1/${sub.name}`)).json();
    expect(info.messageTransforms.failed).toBe(1);
    expect(info.deadLettered).toBe(1);
  }, T);

  test("ordered delivery: a key's messages are delivered in order though their answers overtake each other", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    topic.setPublishOptions({ messageOrdering: true });
    const [sub] = await topic.createSubscription(unique("s"), { enableMessageOrdering: true, messageTransforms: [ai(E)] } as CreateSubscriptionOptions);
    const n = 15;
    for (let i = 0; i < n; i++) void topic.publishMessage({ data: json({ instances: [{ n: i }] }), orderingKey: i % 2 ? "odd" : "even" });
    const got = (await receive(sub, n, { ms: 10_000 })).map((m) => JSON.parse(m.data.toString()).inference.predictions[0].n as number);
    expect(got.filter((x) => x % 2 === 0)).toEqual(Array.from({ length: n }, (_, i) => i).filter((x) => x % 2 === 0));
    expect(got.filter((x) => x % 2 === 1)).toEqual(Array.from({ length: n }, (_, i) => i).filter((x) => x % 2 === 1));
  }, T);
});

describe("the model caller", () => {
  const caller = new HttpInferenceCaller([inferenceRoute(`${origin}/count`)], 5000);
  const message = (text: string) => ({ data: Buffer.from(text), attributes: {} });

  test(`at most ${INFERENCE_LIMITS.concurrency} requests in flight to one URL; the others wait their turn and all are answered`, async () => {
    maxInFlight = 0;
    const outs = await Promise.all(Array.from({ length: 30 }, () => caller.infer({ endpoint: E, parameters: null }, message("{}"))));
    expect(outs.every((o) => o.ok)).toBe(true);
    expect(maxInFlight).toBeLessThanOrEqual(INFERENCE_LIMITS.concurrency);
    expect(maxInFlight).toBeGreaterThan(1);
  }, T);

  test("data nested past what JSON can carry fails the message, never throws", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const out = await caller.infer({ endpoint: E, parameters: null }, message(`{"a":${deep}}`));
    expect(out.ok).toBe(false);
  }, T);
});

describe("--ai-inference-endpoint", () => {
  test("reads URL and ENDPOINT_NAME=URL entries, repeatable and space-separated; refuses a URL that is not http(s) and a name that is not an endpoint's", () => {
    const c = loadConfig(["--ai-inference-endpoint", "http://127.0.0.1:9000", `--ai-inference-endpoint=${E}=https://h/p ${DOWN}=http://h:1/x`], {});
    expect(c.aiInferenceEndpoints).toEqual(["http://127.0.0.1:9000", `${E}=https://h/p`, `${DOWN}=http://h:1/x`]);
    expect(loadConfig([], { PUBSUB_AI_INFERENCE_ENDPOINT: "http://a:1 http://b:2" }).aiInferenceEndpoints).toEqual(["http://a:1", "http://b:2"]);
    expect(() => loadConfig(["--ai-inference-endpoint", "file:///etc/passwd"], {})).toThrow("use http or https");
    expect(() => loadConfig(["--ai-inference-endpoint", `${E}=ftp://h/x`], {})).toThrow("use http or https");
    expect(() => loadConfig(["--ai-inference-endpoint", "topics/t=http://h/x"], {})).toThrow("is not projects/P/locations/L/endpoints/E");
    expect(() => loadConfig(["--ai-inference-endpoint", "not a url"], {})).toThrow("is not a URL");
  });
});

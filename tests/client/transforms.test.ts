/**
 * Single Message Transforms through the official Node client: topics and subscriptions created
 * with JavaScript UDFs see transformed, filtered and failed messages; the contract's limits; and
 * hostile UDFs each failing their message while the server serves others.
 */
import { describe, expect, test } from "bun:test";
import type { CreateSubscriptionOptions } from "@google-cloud/pubsub";
import { clientSuite, withDeadLetters } from "../helpers/client-suite.ts";
import { unique } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";

const T = 20_000;
const INVALID_ARGUMENT = 3;
const s = clientSuite();

const udf = (functionName: string, code: string, disabled = false) => ({ javascriptUdf: { functionName, code }, disabled });
const UPPER = udf("upper", "function upper(message, metadata) { message.data = message.data.toUpperCase(); message.attributes.seen = metadata.publish_time ? 'yes' : 'no'; return message; }");
const DROP_SKIP = udf("dropSkip", "function dropSkip(message) { return message.attributes.skip ? null : message; }");

async function topicWith(transforms: unknown[]) {
  const [topic] = await s.ps.createTopic({ name: unique("t"), messageTransforms: transforms } as never);
  return topic;
}

async function failure(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return { code: Number((e as { code?: unknown }).code), message: String((e as Error).message) };
  }
  throw new Error("expected a failure");
}

describe("topic transforms run at publish", () => {
  test("the stored and delivered message is the transformed one; a filtered one is acked with a unique id and never delivered", async () => {
    const topic = await topicWith([DROP_SKIP, UPPER]);
    const [meta] = await topic.getMetadata();
    expect(meta.messageTransforms?.map((t) => t.javascriptUdf?.functionName)).toEqual(["dropSkip", "upper"]);
    const [sub] = await topic.createSubscription(unique("s"));
    const ids = await Promise.all([
      topic.publishMessage({ data: Buffer.from("hello"), attributes: { a: "1" } }),
      topic.publishMessage({ data: Buffer.from("dropped"), attributes: { skip: "1" } }),
      topic.publishMessage({ data: Buffer.from("world") }),
    ]);
    expect(new Set(ids).size).toBe(3);
    const got = await receive(sub, 2);
    expect(got.map((m) => m.data.toString()).sort()).toEqual(["HELLO", "WORLD"]);
    expect(got.find((m) => m.data.toString() === "HELLO")!.attributes).toEqual({ a: "1", seen: "yes" });
    expect(got.map((m) => m.id)).not.toContain(ids[1]);
  }, T);

  test("a UDF that throws fails the publish with INVALID_ARGUMENT naming the transform", async () => {
    const topic = await topicWith([udf("strict", "function strict(m) { JSON.parse(m.data); return m; }")]);
    const err = await failure(topic.publishMessage({ data: Buffer.from("not json") }));
    expect(err.code).toBe(INVALID_ARGUMENT);
    expect(err.message).toContain('Message transform "strict" failed');
    expect(err.message).toContain("SyntaxError");
    expect(await topic.publishMessage({ data: Buffer.from('{"ok":true}') })).toMatch(/^\d+$/);
  }, T);

  test("a disabled transform is skipped, and an update mask turns it on for new messages", async () => {
    const topic = await topicWith([udf("upper", "function upper(m) { m.data = m.data.toUpperCase(); return m; }", true)]);
    const [sub] = await topic.createSubscription(unique("s"));
    await topic.publishMessage({ data: Buffer.from("before") });
    await topic.setMetadata({ messageTransforms: [udf("upper", "function upper(m) { m.data = m.data.toUpperCase(); return m; }")] } as never);
    await topic.publishMessage({ data: Buffer.from("after") });
    const got = await receive(sub, 2);
    expect(got.map((m) => m.data.toString()).sort()).toEqual(["AFTER", "before"]);
  }, T);
});

describe("subscription transforms run at delivery", () => {
  test("each subscription sees its own transform; a filtered message is never delivered", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    const [plain] = await topic.createSubscription(unique("s"));
    const [shaped] = await topic.createSubscription(unique("s"), { messageTransforms: [DROP_SKIP, UPPER] } as CreateSubscriptionOptions);
    await topic.publishMessage({ data: Buffer.from("one") });
    await topic.publishMessage({ data: Buffer.from("two"), attributes: { skip: "y" } });
    await topic.publishMessage({ data: Buffer.from("three") });
    expect((await receive(plain, 3)).map((m) => m.data.toString()).sort()).toEqual(["one", "three", "two"]);
    const got = await receive(shaped, 2);
    expect(got.map((m) => m.data.toString()).sort()).toEqual(["ONE", "THREE"]);
    const [meta] = await shaped.getMetadata();
    expect(meta.messageTransforms?.length).toBe(2);
  }, T);

  test("a failing UDF sends the original message to the dead-letter topic", async () => {
    const { topic, sub, dlqSub } = await withDeadLetters(s.ps, {
      messageTransforms: [udf("boom", "function boom(m) { if (m.data === 'bad') throw new Error('bad input'); return m; }")],
    });
    await topic.publishMessage({ data: Buffer.from("bad") });
    await topic.publishMessage({ data: Buffer.from("good") });
    expect((await receive(sub, 1)).map((m) => m.data.toString())).toEqual(["good"]);
    const dead = await receive(dlqSub, 1);
    expect(dead[0].data.toString()).toBe("bad");
    expect(dead[0].attributes.CloudPubSubDeadLetterSourceSubscription).toBe(sub.name.split("/").pop()!);
  }, T);
});

describe("the contract", () => {
  test("more than 5 enabled transforms, a duplicate function_name and code that does not compile are INVALID_ARGUMENT", async () => {
    const six = Array.from({ length: 6 }, (_, i) => udf(`f${i}`, `function f${i}(m) { return m; }`));
    let err = await failure(s.ps.createTopic({ name: unique("t"), messageTransforms: six } as never));
    expect(err.code).toBe(INVALID_ARGUMENT);
    expect(err.message).toContain("Maximum enabled transforms: 5. Enabled transforms: 6");
    six[5].disabled = true;
    await topicWith(six);
    err = await failure(topicWith([udf("same", "function same(m){return m}"), udf("same", "function same(m){return null}")]));
    expect(err.message).toContain('function_name "same" is used by another transform');
    err = await failure(topicWith([udf("broken", "function broken(m) { return m")]));
    expect(err.code).toBe(INVALID_ARGUMENT);
    expect(err.message).toContain('"broken" is not valid');
    err = await failure(topicWith([udf("missing", "function other(m) { return m }")]));
    expect(err.message).toContain("no function named missing");
  }, T);
});

describe("hostile UDFs fail their message, and the server keeps serving", () => {
  const HOSTILE: [string, string, RegExp][] = [
    ["loop", "function loop(m) { while (true) {} }", /time limit/],
    ["hog", "function hog(m) { const a = []; while (true) a.push('xxxxxxxxxxxxxxxx' + a.length); }", /time limit|memory limit/],
    ["exit", "function exit(m) { process.exit(1); }", /process' is not defined/],
    ["fs", "function fs(m) { return require('fs').readFileSync('/etc/passwd', 'utf8'); }", /require' is not defined/],
    ["tamper", "function tamper(m) { globalThis.leak = 1; Object.prototype.polluted = 1; JSON.parse = null; return null.x; }", /TypeError/],
    ["nonError", "function nonError(m) { throw { toString() { throw 1 } }; }", /thrown value/],
    ["huge", "function huge(m) { return { data: 'x'.repeat(10 * 1024 * 1024) }; }", /After the topic's message transforms: messages\[0\]\.data is 10485760 bytes, but the maximum allowed is 10000000|memory limit/],
  ];
  for (const [name, code, expected] of HOSTILE) {
    test(name, async () => {
      const topic = await topicWith([udf(name, code)]);
      const err = await failure(topic.publishMessage({ data: Buffer.from("x") }));
      expect(err.code).toBe(INVALID_ARGUMENT);
      expect(err.message).toMatch(expected);
      const plain = await topicWith([UPPER]);
      expect(await plain.publishMessage({ data: Buffer.from("still serving") })).toMatch(/^\d+$/);
    }, T);
  }

  test("nothing a UDF does survives into the next call", async () => {
    const topic = await topicWith([
      udf("count", "let n = 0; function count(m) { n++; globalThis.seen = (globalThis.seen || 0) + 1; m.data = n + ':' + String(globalThis.seen) + ':' + typeof Object.prototype.polluted; return m; }"),
    ]);
    const [sub] = await topic.createSubscription(unique("s"));
    await topic.publishMessage({ data: Buffer.from("a") });
    await topic.publishMessage({ data: Buffer.from("b") });
    expect((await receive(sub, 2)).map((m) => m.data.toString())).toEqual(["1:undefined:undefined", "1:undefined:undefined"]);
  }, T);
});

describe("inspection and metrics", () => {
  test("a topic's and a subscription's transforms with their counts; Prometheus families", async () => {
    const topic = await topicWith([DROP_SKIP, udf("strict", "function strict(m) { JSON.parse(m.data); return m; }")]);
    const [sub] = await topic.createSubscription(unique("s"), { messageTransforms: [UPPER] } as CreateSubscriptionOptions);
    await topic.publishMessage({ data: Buffer.from("{}") });
    await topic.publishMessage({ data: Buffer.from("x"), attributes: { skip: "1" } });
    await failure(topic.publishMessage({ data: Buffer.from("not json") }));
    await receive(sub, 1);
    const base = `http://${s.emu.endpoint}/emulator/v1/${topic.name}`;
    const t = await (await fetch(base)).json();
    expect(t.messageTransforms).toEqual({
      steps: [
        { functionName: "dropSkip", kind: "javascript_udf", failures: 0 },
        { functionName: "strict", kind: "javascript_udf", failures: 1 },
      ],
      transformed: 1,
      filtered: 1,
      failed: 1,
    });
    const subInfo = await (await fetch(`http://${s.emu.endpoint}/emulator/v1/${sub.name}`)).json();
    expect(subInfo.messageTransforms.transformed).toBe(1);
    const metrics = await (await fetch(`http://${s.emu.endpoint}/metrics`)).text();
    const topicId = topic.name.split("/").pop();
    expect(metrics).toContain(`pubsub_emulator_transform_failed_messages_total{project="test-project",resource_type="topic",resource="${topicId}"} 1`);
    expect(metrics).toContain(`pubsub_emulator_filtered_messages_total{project="test-project",resource_type="topic",resource="${topicId}"} 1`);
  }, T);
});

describe("over REST, and what the issue left to us", () => {
  test("REST create, get and PATCH with updateMask=messageTransforms round-trip them (proto3 JSON)", async () => {
    const base = `http://${s.emu.endpoint}/v1/projects/test-project`;
    const id = unique("t");
    const put = await fetch(`${base}/topics/${id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ messageTransforms: [UPPER] }) });
    expect(put.status).toBe(200);
    const created = await put.json();
    expect(created.messageTransforms[0].javascriptUdf.functionName).toBe("upper");
    const patch = await fetch(`${base}/topics/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ topic: { name: `projects/test-project/topics/${id}`, messageTransforms: [DROP_SKIP, { ...UPPER, disabled: true }] }, updateMask: "messageTransforms" }),
    });
    expect(patch.status).toBe(200);
    const got = await (await fetch(`${base}/topics/${id}`)).json();
    expect(got.messageTransforms.map((t: { javascriptUdf: { functionName: string }; disabled?: boolean }) => [t.javascriptUdf.functionName, !!t.disabled])).toEqual([
      ["dropSkip", false],
      ["upper", true],
    ]);
    const bad = await fetch(`${base}/topics/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ topic: { name: `projects/test-project/topics/${id}`, messageTransforms: [{ javascriptUdf: { functionName: "x" } }] }, updateMask: "message_transforms" }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain("message_transforms[0].javascript_udf.code is required");
  }, T);

  test("an ai_inference transform is accepted and passes the message through unchanged (no Vertex AI here)", async () => {
    const topic = await topicWith([{ aiInference: { endpoint: "projects/p/locations/us-central1/endpoints/e" } }, UPPER]);
    const [sub] = await topic.createSubscription(unique("s"));
    await topic.publishMessage({ data: Buffer.from("ai") });
    expect((await receive(sub, 1)).map((m) => m.data.toString())).toEqual(["AI"]);
    const err = await failure(topicWith([{ aiInference: {} }]));
    expect(err.code).toBe(INVALID_ARGUMENT);
    expect(err.message).toContain("message_transforms[0].ai_inference.endpoint is required");
  }, T);

  test("without a dead-letter topic, a message the subscription's UDF fails on is held back, never delivered, and counted", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    const [sub] = await topic.createSubscription(unique("s"), {
      messageTransforms: [udf("boom", "function boom(m) { if (m.data === 'bad') throw new Error('bad input'); return m; }")],
    } as CreateSubscriptionOptions);
    await topic.publishMessage({ data: Buffer.from("bad") });
    await topic.publishMessage({ data: Buffer.from("good") });
    expect((await receive(sub, 1, { ms: 1500 })).map((m) => m.data.toString())).toEqual(["good"]);
    const info = await (await fetch(`http://${s.emu.endpoint}/emulator/v1/${sub.name}`)).json();
    expect(info.messageTransforms.failed).toBeGreaterThanOrEqual(1);
    expect(info.backlog).toBe(1);
  }, T);
});

/**
 * Subscription transforms in the core (manual clock): ordering keys keep their order around a
 * filtered message and wait behind a failing one; a failing message without a dead-letter topic
 * comes back after the ack deadline, counted as an attempt; redelivery shows the same result;
 * an update of the transforms applies to messages not yet transformed.
 */
import { expect, test } from "bun:test";
import type { TopicResource } from "../../src/core/resources.ts";
import { loadQuickJsEngine } from "../../src/transforms/quickjs-engine.ts";
import { SEC, ack, makeSub, makeTopic, nack, pullNow, publishTexts, setup, texts } from "../helpers/core.ts";
import { PARENT } from "../helpers/project.ts";

const engine = await loadQuickJsEngine();
const UDF = (name: string, body: string) => ({ javascriptUdf: { functionName: name, code: `function ${name}(message, metadata) { ${body} }` } });
const DROP_B_FAIL_X = UDF("pick", "if (message.data === 'b') return null; if (message.data === 'x') throw new Error('x!'); message.data = message.data + '!' + metadata.message_id; return message;");

async function fixture(subExtra: Record<string, unknown> = {}) {
  const f = setup({ transforms: async () => engine });
  await f.broker.ensureTransformEngine();
  const topic = makeTopic(f.broker);
  const sub = makeSub(f.broker, topic, { messageTransforms: [DROP_B_FAIL_X], ...subExtra });
  return { ...f, topic, sub };
}

test("ordering: a filtered message is skipped in order; a failing one holds its key back, not other keys", async () => {
  const { broker, topic, sub } = await fixture({ enableMessageOrdering: true });
  const k1 = publishTexts(broker, topic, ["a", "b", "c"], "k1");
  publishTexts(broker, topic, ["x", "y"], "k2");
  publishTexts(broker, topic, ["z"], "k3");
  const got = await pullNow(broker, sub, 10);
  expect(texts(got)).toEqual([`a!${k1[0]}`, `c!${k1[2]}`, expect.stringMatching(/^z!/)]);
  ack(broker, sub, got);
  expect(await pullNow(broker, sub, 10)).toEqual([]);
});

test("without a dead-letter topic a failing message comes back after the ack deadline; redelivery shows the same result", async () => {
  const { broker, clock, topic, sub } = await fixture({ ackDeadlineSeconds: 10 });
  publishTexts(broker, topic, ["x", "ok"]);
  const first = await pullNow(broker, sub, 10);
  expect(texts(first)).toEqual([expect.stringMatching(/^ok!/)]);
  nack(broker, sub, first);
  expect(texts(await pullNow(broker, sub, 10))).toEqual(texts(first));
  const chain = broker.transformsOf(sub)!;
  expect(chain.failed).toBe(1);
  clock.advance(10 * SEC);
  await pullNow(broker, sub, 10);
  expect(chain.failed).toBe(2);
  expect([...broker.subscriptions.entries(sub)].length).toBe(2);
});

test("an update of the subscription's transforms applies to messages not transformed yet", async () => {
  const { broker, topic, sub } = await fixture();
  publishTexts(broker, topic, ["a"]);
  broker.subscriptions.update({ name: sub, messageTransforms: [UDF("up", "message.data = message.data.toUpperCase(); return message;")] } as never, ["message_transforms"]);
  expect(texts(await pullNow(broker, sub, 10))).toEqual(["A"]);
  broker.topics.update({ name: topic, messageTransforms: [UDF("none", "return null;")] } as TopicResource, ["message_transforms"]);
  const ids = publishTexts(broker, topic, ["gone"]);
  expect(ids).toHaveLength(1);
  expect(await pullNow(broker, sub, 10)).toEqual([]);
});

test("compiled UDFs are freed when their resource goes or its transforms change (the engine's heap is bounded)", async () => {
  const { broker } = await fixture();
  // ≈ 60 KB of code: 600 of them kept would pass the interpreter's 32 MiB.
  const padding = "y".repeat(60_000);
  for (let i = 0; i < 600; i++) {
    const big = UDF("big", `const pad = "${i}${padding}"; return message;`);
    const topic = makeTopic(broker, { messageTransforms: [big] });
    const sub = makeSub(broker, topic, { messageTransforms: [big] });
    broker.subscriptions.update({ name: sub, messageTransforms: [big] } as never, ["message_transforms"]);
    broker.subscriptions.delete(sub);
    broker.topics.delete(topic);
  }
  const topic = makeTopic(broker, { messageTransforms: [UDF("up", "message.data = message.data.toUpperCase(); return message;")] });
  const sub = makeSub(broker, topic);
  publishTexts(broker, topic, ["still works"]);
  expect(texts(await pullNow(broker, sub, 10))).toEqual(["STILL WORKS"]);
}, 60_000);

test("a topic's schema checks the message its transforms made", async () => {
  const { broker } = await fixture();
  const parent = PARENT;
  const definition = JSON.stringify({ type: "record", name: "Order", fields: [{ name: "id", type: "long" }] });
  broker.schemas.create(parent, "order-schema", { type: "AVRO", definition });
  const topic = makeTopic(broker, {
    schemaSettings: { schema: `${parent}/schemas/order-schema`, encoding: "JSON" },
    messageTransforms: [UDF("wrap", "return { data: JSON.stringify({ id: Number(message.data) }) };")],
  });
  const sub = makeSub(broker, topic);
  publishTexts(broker, topic, ["42"]);
  expect(texts(await pullNow(broker, sub, 10))).toEqual(['{"id":42}']);
  expect(() => publishTexts(broker, topic, ["not a number"])).toThrow(/schema|Invalid data|id/i);
});

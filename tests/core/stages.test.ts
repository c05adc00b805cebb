/**
 * Per-message stages: a topic or subscription has the stages its config asks for, in their
 * registered order, and none otherwise; stages that filter keep request indexes straight.
 */
import { expect, test } from "bun:test";
import { mergeFiltered } from "../../src/core/stages/stages.ts";
import { loadQuickJsEngine } from "../../src/transforms/quickjs-engine.ts";
import { makeSub, makeTopic, setup } from "../helpers/core.ts";
import { PARENT } from "../helpers/project.ts";

const engine = await loadQuickJsEngine();
const UDF = { javascriptUdf: { functionName: "f", code: "function f(message, metadata) { return message; }" } };
const AVRO = JSON.stringify({ type: "record", name: "R", fields: [{ name: "a", type: "string" }] });

test("a topic without transforms or a schema has no publish stage; with both, transforms run before the schema check", async () => {
  const { broker } = setup({ transforms: async () => engine });
  await broker.ensureTransformEngine();
  const plain = makeTopic(broker);
  const schema = broker.schemas.create(PARENT, "stages-s", { type: "AVRO", definition: AVRO });
  const both = makeTopic(broker, { messageTransforms: [UDF], schemaSettings: { schema: schema.name, encoding: "JSON" } });
  const stages = new Map([...broker.resources().topics].map((t) => [t.name, t.stages.map((s) => s.name)]));
  expect(stages.get(plain)).toEqual([]);
  expect(stages.get(both)).toEqual(["transforms", "schema"]);
  broker.topics.update({ name: both } as never, ["message_transforms"]);
  expect([...broker.resources().topics].find((t) => t.name === both)!.stages.map((s) => s.name)).toEqual(["schema"]);
});

test("a subscription has the transforms delivery stage only while it has transforms", async () => {
  const { broker } = setup({ transforms: async () => engine });
  await broker.ensureTransformEngine();
  const topic = makeTopic(broker);
  const plain = makeSub(broker, topic);
  const with_ = makeSub(broker, topic, { messageTransforms: [UDF] });
  expect(broker.subscriptions.lookup(plain).stage).toBeNull();
  expect(broker.subscriptions.lookup(with_).stage?.name).toBe("transforms");
  broker.subscriptions.update({ name: with_ } as never, ["message_transforms"]);
  expect(broker.subscriptions.lookup(with_).stage).toBeNull();
});

test("mergeFiltered maps a later stage's drops to request indexes", () => {
  expect(mergeFiltered([], [1, 2])).toEqual([1, 2]);
  expect(mergeFiltered([0, 2], [0, 2])).toEqual([0, 1, 2, 4]);
  expect(mergeFiltered([1], [1])).toEqual([1, 2]);
  expect(mergeFiltered([3], [])).toEqual([3]);
});

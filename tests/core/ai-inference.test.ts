/**
 * The asynchronous path of chains with a model call, on the broker with a manual clock and a
 * model whose answers the test releases one by one: publishes stored in arrival order, messages
 * set aside while prepared (counted, never leased), and what may happen meanwhile (retention,
 * seek, delete, a key's later messages, the cap on preparations).
 */
import { describe, expect, test } from "bun:test";
import type { AiInferenceCaller, AiInferenceSpec, UdfMessage, UdfOutcome } from "../../src/core/stages/transform-engine.ts";
import { MAX_PREPARING } from "../../src/core/subscription/subscription.ts";
import { MemoryBudget } from "../../src/core/memory-budget.ts";
import { SEC, ack, bytes, flush, makeSub, makeTopic, msg, openStream, pullNow, setup, text, texts, track } from "../helpers/core.ts";

const decoder = new TextDecoder();

/** A model that answers only when told: `answer(i)` settles the i-th call with its data upper-cased (or a failure). */
class HeldModel implements AiInferenceCaller {
  calls: { spec: AiInferenceSpec; data: string; settle: (o: UdfOutcome) => void }[] = [];
  infer(spec: AiInferenceSpec, message: UdfMessage): Promise<UdfOutcome> {
    return new Promise((settle) => this.calls.push({ spec, data: decoder.decode(message.data), settle }));
  }
  answer(i: number, fail = false): void {
    const c = this.calls[i];
    c.settle(fail ? { ok: false, error: "model down" } : { ok: true, message: { data: bytes(c.data.toUpperCase()), attributes: {} } });
  }
}

const AI = [{ aiInference: { endpoint: "projects/p/locations/l/endpoints/e" } }];

function fixture() {
  const model = new HeldModel();
  const f = setup({ inference: model });
  return { ...f, model };
}

describe("at publish", () => {
  test("Publishes waiting for their transforms count against the memory budget: a model that never answers cannot make the server hold them without bound", async () => {
    const model = new HeldModel();
    const { broker } = setup({ inference: model, memory: new MemoryBudget({ maxBytes: 200_000, now: () => 0 }) });
    const topic = makeTopic(broker, { messageTransforms: AI });
    makeSub(broker, topic);
    const big = { data: bytes("x".repeat(10_000)) };
    let accepted = 0;
    let refused: { code?: string; message?: string } | null = null;
    for (let i = 0; i < 50 && !refused; i++) {
      try {
        track(broker.topics.publishAsync(topic, [big]));
        accepted++;
      } catch (e) {
        refused = e as { code?: string; message?: string };
      }
    }
    expect(refused?.code).toBe("RESOURCE_EXHAUSTED");
    expect(refused?.message).toContain("waiting for their topics' transforms");
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(10);
  });

  test("a later Publish whose model answers first is still stored after the earlier one", async () => {
    const { broker, model } = fixture();
    const topic = makeTopic(broker, { messageTransforms: AI });
    const sub = makeSub(broker, topic);
    expect(broker.topics.publishesAsync(topic)).toBe(true);
    const first = track(broker.topics.publishAsync(topic, [msg("a1"), msg("a2")]));
    const second = track(broker.topics.publishAsync(topic, [msg("b1")]));
    await flush();
    expect(model.calls.map((c) => c.data)).toEqual(["a1", "a2"]); // the second waits for the first
    model.answer(1);
    model.answer(0);
    await flush();
    expect(model.calls.map((c) => c.data)).toEqual(["a1", "a2", "b1"]);
    model.answer(2);
    await flush();
    expect(first.value!.map(Number)).toEqual([Number(second.value![0]) - 2, Number(second.value![0]) - 1]);
    expect(texts(await pullNow(broker, sub))).toEqual(["A1", "A2", "B1"]);
  });

  test("a failing model call fails the whole Publish (nothing stored) and the next one still runs", async () => {
    const { broker, model } = fixture();
    const topic = makeTopic(broker, { messageTransforms: AI });
    const sub = makeSub(broker, topic);
    const bad = track(broker.topics.publishAsync(topic, [msg("x"), msg("y")]));
    const good = track(broker.topics.publishAsync(topic, [msg("z")]));
    await flush();
    model.answer(0);
    model.answer(1, true);
    await flush();
    expect(String(bad.error)).toContain('Message transform "ai_inference[0]" failed on messages[1]: model down');
    model.answer(2);
    await flush();
    expect(good.value).toHaveLength(1);
    expect(texts(await pullNow(broker, sub))).toEqual(["Z"]);
  });

  test("a topic deleted while its model answers: the Publish is NOT_FOUND and stores nothing", async () => {
    const { broker, model } = fixture();
    const topic = makeTopic(broker, { messageTransforms: AI });
    const p = track(broker.topics.publishAsync(topic, [msg("late")]));
    await flush();
    broker.topics.delete(topic);
    model.answer(0);
    await flush();
    expect((p.error as { code: string }).code).toBe("NOT_FOUND");
    expect(broker.topics.publishesAsync(topic)).toBe(false);
  });

  test("without a model caller the transform passes messages through on the synchronous path", async () => {
    const { broker } = setup();
    const topic = makeTopic(broker, { messageTransforms: AI });
    const sub = makeSub(broker, topic, { messageTransforms: AI });
    expect(broker.topics.publishesAsync(topic)).toBe(false);
    broker.topics.publish(topic, [msg("plain")]);
    expect(texts(await pullNow(broker, sub))).toEqual(["plain"]);
  });
});

describe("at delivery", () => {
  test("a message is set aside while prepared: counted in the backlog, never leased, delivered transformed when the model answers", async () => {
    const { broker, model } = fixture();
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic, { messageTransforms: AI });
    broker.topics.publish(topic, [msg("hello")]);
    const { sink } = openStream(broker, sub);
    expect(model.calls).toHaveLength(1);
    expect(sink.deliveries).toHaveLength(0);
    expect(broker.subscriptionView(sub).backlogSize).toBe(1);
    expect(await pullNow(broker, sub)).toHaveLength(0);
    model.answer(0);
    await flush();
    expect(texts(sink.deliveries)).toEqual(["HELLO"]);
    ack(broker, sub, sink.deliveries);
    expect(broker.subscriptionView(sub).backlogSize).toBe(0);
  });

  test("a key's later messages wait until its first is prepared and acked; other keys go on", async () => {
    const { broker, model } = fixture();
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic, { messageTransforms: AI, enableMessageOrdering: true });
    broker.topics.publish(topic, [msg("k1", { orderingKey: "k" }), msg("k2", { orderingKey: "k" })]);
    broker.topics.publish(topic, [msg("j1", { orderingKey: "j" })]);
    const { sink } = openStream(broker, sub);
    expect(model.calls.map((c) => c.data)).toEqual(["k1", "j1"]);
    model.answer(1);
    await flush();
    expect(texts(sink.deliveries)).toEqual(["J1"]);
    model.answer(0);
    await flush();
    expect(texts(sink.deliveries)).toEqual(["J1", "K1"]);
    ack(broker, sub, sink.deliveries);
    expect(model.calls.map((c) => c.data)).toEqual(["k1", "j1", "k2"]);
    model.answer(2);
    await flush();
    expect(texts(sink.deliveries)).toEqual(["J1", "K1", "K2"]);
  });

  test("a failed preparation is an attempt: held back, then prepared again and delivered", async () => {
    const { broker, model, clock } = fixture();
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic, { messageTransforms: AI, ackDeadlineSeconds: 10 });
    broker.topics.publish(topic, [msg("retry")]);
    const { sink } = openStream(broker, sub);
    model.answer(0, true);
    await flush();
    expect(sink.deliveries).toHaveLength(0);
    expect(broker.subscriptionView(sub).backlogSize).toBe(1);
    clock.advance(10 * SEC);
    expect(model.calls).toHaveLength(2);
    model.answer(1);
    await flush();
    expect(texts(sink.deliveries)).toEqual(["RETRY"]);
    expect(sink.deliveries[0].deliveryAttempt).toBe(2);
  });

  test("retention, a seek and a delete while a message is prepared leave nothing behind", async () => {
    const { broker, model, clock } = fixture();
    const topic = makeTopic(broker);
    const expiring = makeSub(broker, topic, { messageTransforms: AI, messageRetentionDuration: 600 * SEC });
    const seeking = makeSub(broker, topic, { messageTransforms: AI, enableMessageOrdering: true });
    const deleted = makeSub(broker, topic, { messageTransforms: AI });
    broker.topics.publish(topic, [msg("m", { orderingKey: "k" })]);
    const streams = [expiring, seeking, deleted].map((s) => openStream(broker, s));
    expect(model.calls).toHaveLength(3);
    broker.seek(seeking, { time: 0 }); // back in the queue: prepared again, the first answer disregarded
    expect(model.calls).toHaveLength(4);
    broker.subscriptions.delete(deleted);
    clock.advance(601 * SEC);
    expect(broker.subscriptionView(expiring).backlogSize).toBe(0);
    for (let i = 0; i < 4; i++) model.answer(i);
    await flush();
    expect(streams[0].sink.deliveries).toHaveLength(0);
    expect(texts(streams[1].sink.deliveries)).toEqual(["M"]);
    expect(broker.subscriptionView(seeking).backlogSize).toBe(1);
    ack(broker, seeking, streams[1].sink.deliveries);
    expect(broker.subscriptionView(seeking).backlogSize).toBe(0);
  });

  test(`at most ${MAX_PREPARING} messages of a subscription are prepared at once; the rest follow as answers come`, async () => {
    const { broker, model } = fixture();
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic, { messageTransforms: AI });
    const n = MAX_PREPARING + 10;
    broker.topics.publish(topic, Array.from({ length: n }, (_, i) => msg(`m${i}`)));
    const { sink } = openStream(broker, sub);
    expect(model.calls).toHaveLength(MAX_PREPARING);
    for (let i = 0; i < n; i++) {
      model.answer(i);
      await flush();
    }
    expect(sink.deliveries.map(text).sort()).toEqual(Array.from({ length: n }, (_, i) => `M${i}`).sort());
  });
});

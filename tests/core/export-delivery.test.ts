/**
 * ExportConsumer on a manual clock with a scripted sink: acked only after the write resolves, a
 * failed write redelivers (never loses), delivery pauses with backoff while the destination is
 * not there and resumes by itself, the state follows the writes, and a deleted subscription's
 * write in flight settles quietly.
 */
import { expect, test } from "bun:test";
import type { ExportKind, SinkResult } from "../../src/core/kinds/export-delivery.ts";
import type { Delivery } from "../../src/core/message.ts";
import type { SubscriptionResource } from "../../src/core/resources.ts";
import { StreamSession } from "../../src/core/delivery/stream-session.ts";
import { FakeSink, SEC, publishTexts, pullNow, setup, texts, topicAndSub } from "../helpers/core.ts";

/** A BigQuery-shaped kind whose writes the test resolves by hand. */
class ScriptedKind implements ExportKind {
  readonly name = "bigquery";
  writes: { batch: Delivery[]; resolve(r: SinkResult): void; reject(e: unknown): void }[] = [];
  probeState = "ACTIVE";
  applies = (c: SubscriptionResource) => !!(c.bigqueryConfig as { table?: string } | undefined)?.table;
  setState(c: SubscriptionResource, state: string) {
    (c.bigqueryConfig as { state?: string }).state = state;
  }
  probe = () => this.probeState;
  write(_sub: unknown, batch: Delivery[]): Promise<SinkResult> {
    return new Promise((resolve, reject) => this.writes.push({ batch, resolve, reject }));
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const BQ = { bigqueryConfig: { table: "core-test.ds.t" } } as Partial<SubscriptionResource>;

test("messages are acked only once their write resolves; unwritten ones come back", async () => {
  const kind = new ScriptedKind();
  const { broker } = setup({ exports: () => [kind] });
  const { topic, sub } = topicAndSub(broker, BQ);
  publishTexts(broker, topic, ["a", "b", "c"]);
  expect(kind.writes).toHaveLength(1);
  const [w] = kind.writes;
  expect(texts(w.batch)).toEqual(["a", "b", "c"]);
  expect(broker.subscriptions.lookup(sub).backlogSize).toBe(3);
  w.resolve({ state: "ACTIVE", written: [w.batch[0], w.batch[2]] });
  await flush();
  expect(broker.subscriptions.lookup(sub).backlogSize).toBe(1);
  expect(broker.subscriptions.exportStatus(sub)).toEqual({ kind: "bigquery", state: "ACTIVE", rows: 2 });
});

test("a write that throws is a redelivery after backoff, never a loss", async () => {
  const kind = new ScriptedKind();
  const { broker, clock } = setup({ exports: () => [kind] });
  const { topic, sub } = topicAndSub(broker, BQ);
  publishTexts(broker, topic, ["x"]);
  kind.writes[0].reject(new Error("disk full"));
  await flush();
  expect(kind.writes).toHaveLength(1); // paused
  clock.advance(1 * SEC);
  expect(kind.writes).toHaveLength(2);
  expect(texts(kind.writes[1].batch)).toEqual(["x"]);
  expect(kind.writes[1].batch[0].deliveryAttempt).toBe(2);
  kind.writes[1].resolve({ state: "ACTIVE", written: kind.writes[1].batch });
  await flush();
  expect(broker.subscriptions.lookup(sub).backlogSize).toBe(0);
});

test("NOT_FOUND pauses with growing backoff and reports the state; the first good write resumes and resets it", async () => {
  const kind = new ScriptedKind();
  kind.probeState = "NOT_FOUND";
  const { broker, clock } = setup({ exports: () => [kind] });
  const { topic, sub } = topicAndSub(broker, BQ);
  const state = () => (broker.subscriptions.get(sub).bigqueryConfig as { state: string }).state;
  expect(state()).toBe("NOT_FOUND");
  publishTexts(broker, topic, ["m"]);
  for (const wait of [1, 2, 4]) {
    kind.writes.at(-1)!.resolve({ state: "NOT_FOUND", written: [] });
    await flush();
    const n = kind.writes.length;
    clock.advance(wait * SEC - 1);
    expect(kind.writes).toHaveLength(n);
    clock.advance(1);
    expect(kind.writes).toHaveLength(n + 1);
  }
  kind.writes.at(-1)!.resolve({ state: "ACTIVE", written: kind.writes.at(-1)!.batch });
  await flush();
  expect(state()).toBe("ACTIVE");
  expect(broker.subscriptions.lookup(sub).backlogSize).toBe(0);
  publishTexts(broker, topic, ["n"]);
  expect(kind.writes.length).toBe(5); // no pause left behind
});

test("an unwritable message among written ones pauses delivery by the minimum only, however often it fails", async () => {
  const kind = new ScriptedKind();
  const { broker, clock } = setup({ exports: () => [kind] });
  const { topic } = topicAndSub(broker, BQ);
  publishTexts(broker, topic, ["good-0", "bad"]);
  const writeGood = async () => {
    const w = kind.writes.at(-1)!;
    expect(texts(w.batch)).toContain("bad");
    w.resolve({ state: "ACTIVE", written: w.batch.filter((d) => texts([d])[0] !== "bad") });
    await flush();
  };
  await writeGood();
  for (let round = 1; round <= 4; round++) {
    publishTexts(broker, topic, [`good-${round}`]); // held: delivery is paused
    const n = kind.writes.length;
    clock.advance(1 * SEC);
    expect(kind.writes.length).toBe(n + 1);
    expect(texts(kind.writes.at(-1)!.batch).sort()).toEqual(["bad", `good-${round}`]);
    await writeGood();
  }
});

test("a write in flight when the subscription is deleted settles quietly", async () => {
  const kind = new ScriptedKind();
  const { broker } = setup({ exports: () => [kind] });
  const { topic, sub } = topicAndSub(broker, BQ);
  publishTexts(broker, topic, ["x"]);
  broker.subscriptions.delete(sub);
  kind.writes[0].resolve({ state: "ACTIVE", written: kind.writes[0].batch });
  await flush();
  expect(() => broker.subscriptions.get(sub)).toThrow();
});

test("Pull and StreamingPull are refused; turning the export off makes it a pull subscription again", () => {
  const kind = new ScriptedKind();
  const { broker } = setup({ exports: () => [kind] });
  const { sub } = topicAndSub(broker, BQ);
  expect(() => broker.subscriptions.pull(sub, 1, true)).toThrow("not supported for BigQuery subscriptions");
  broker.subscriptions.update({ ...broker.subscriptions.get(sub), bigqueryConfig: {} }, ["bigquery_config"]);
  expect(broker.subscriptions.get(sub).bigqueryConfig).toBeUndefined();
  expect(broker.subscriptions.exportStatus(sub)).toBeNull();
});

test("switching kinds: a stream open when the subscription becomes BigQuery returns its messages and ends; push → BigQuery → pull moves what waits, and a push answer after the switch still settles", async () => {
  const kind = new ScriptedKind();
  const answers: ((status: number) => void)[] = [];
  const sender = { send: () => new Promise<number>((resolve) => answers.push(resolve)) };
  const { broker } = setup({ exports: () => [kind], push: { sender, options: { initialWindow: 1 } } });
  const { topic, sub } = topicAndSub(broker);
  const sink = new FakeSink();
  new StreamSession(broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, sink);
  broker.subscriptions.update({ ...broker.subscriptions.get(sub), ...BQ }, ["bigquery_config"]);
  expect(texts(kind.writes[0]?.batch ?? [])).toEqual([]);
  publishTexts(broker, topic, ["a"]);
  // The export consumer took "a"; the stream is never handed a message (one it is handed goes back, and it ends).
  expect(texts(kind.writes[0].batch)).toEqual(["a"]);
  expect(sink.sends.flat()).toEqual([]);
  broker.subscriptions.update({ ...broker.subscriptions.get(sub), bigqueryConfig: {}, pushConfig: { pushEndpoint: "http://127.0.0.1:1/p" } }, [
    "bigquery_config",
    "push_config",
  ]);
  kind.writes[0].resolve({ state: "ACTIVE", written: kind.writes[0].batch });
  await flush();
  expect(broker.subscriptions.lookup(sub).backlogSize).toBe(0);
  publishTexts(broker, topic, ["b", "c"]);
  expect(answers).toHaveLength(1); // window 1: "b" is out, "c" waits
  broker.subscriptions.modifyPushConfig(sub, {});
  answers[0](200);
  await flush();
  expect(texts(await pullNow(broker, sub))).toEqual(["c"]);
  expect(broker.subscriptions.lookup(sub).backlogSize).toBe(1);
  expect(sink.failure?.code).toBe("FAILED_PRECONDITION");
});

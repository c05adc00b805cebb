/**
 * The store contract: ids come from the store, every state change reaches it, a message is held
 * exactly while something needs it, and a broker rebuilt from a store resumes where it was. Runs
 * on the in-memory store here and on SQLite from tests/persistence/core-on-sqlite.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { Store } from "../../src/core/store/store.ts";
import { PROJECT, SEC, ack, caught, makeSub, makeTopic, msg, nack, publishTexts, pullNow, setup, texts, topicAndSub, uid, topicWithSubs } from "../helpers/core.ts";
import { RowStore } from "../helpers/row-store.ts";
import { storeKind, type RowTuple } from "../helpers/stores.ts";

const kind = storeKind();
const rowsOf = (store: Store, sub: string) => kind.rows(store, sub);
const liveOf = (broker: Broker, sub: string) => [...broker.subscriptions.entries(sub)].map((e): RowTuple => [e.msg.seq, e.attempts, e.acked]);

describe("ids", () => {
  test("message ids are the store's seqs, in publish order across topics", () => {
    const store = kind.create();
    const { broker } = setup({ store });
    const a = makeTopic(broker);
    const b = makeTopic(broker);
    expect(publishTexts(broker, a, ["x", "y"])).toEqual(["1", "2"]);
    expect(publishTexts(broker, b, ["z"])).toEqual(["3"]);
    expect(store.nextSeq).toBe(4);
  });

  test("ack ids come from the store: two brokers on one store never hand out the same one", async () => {
    const store = kind.create();
    const one = setup({ store }).broker;
    const two = new Broker({ clock: new ManualClock(), store });
    const ids: string[] = [];
    for (const broker of [one, two, one]) {
      const { topic, sub } = topicAndSub(broker);
      publishTexts(broker, topic, ["m"]);
      ids.push(...(await pullNow(broker, sub)).map((d) => d.ackId));
    }
    expect(new Set(ids).size).toBe(3);
  });
});

describe("held accounting", () => {
  test("a message is held once however many subscriptions take it, and freed after the last ack", async () => {
    const { broker } = setup();
    const { topic, subs: [a, b] } = topicWithSubs(broker, 2);
    publishTexts(broker, topic, ["12345"]);
    expect(broker.stats()).toMatchObject({ heldMessages: 1, heldBytes: 5 });
    ack(broker, a, await pullNow(broker, a));
    expect(broker.stats().heldMessages).toBe(1);
    ack(broker, b, await pullNow(broker, b));
    expect(broker.stats()).toMatchObject({ heldMessages: 0, heldBytes: 0 });
  });

  test("a filtered-out message is not held; delete, detach and reset free what was held", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const onlyBlue = makeSub(broker, topic, { filter: 'attributes.c = "blue"' });
    broker.topics.publish(topic, [msg("r", { attributes: { c: "red" } })]);
    expect(broker.stats().heldMessages).toBe(0);
    broker.topics.publish(topic, [msg("b", { attributes: { c: "blue" } })]);
    expect(broker.stats().heldMessages).toBe(1);
    broker.subscriptions.delete(onlyBlue);
    expect(broker.stats().heldMessages).toBe(0);
    const s = makeSub(broker, topic);
    publishTexts(broker, topic, ["x"]);
    broker.detachSubscription(s);
    expect(broker.stats().heldMessages).toBe(0);
    makeSub(broker, topic);
    publishTexts(broker, topic, ["y"]);
    broker.reset();
    expect(broker.stats()).toMatchObject({ heldMessages: 0, heldBytes: 0, topics: 0, subscriptions: 0 });
  });
});

describe("every change reaches the store", () => {
  test("rows mirror each subscription's entries through publish, delivery, ack, nack, retention and seek", async () => {
    const store = kind.create();
    const { broker, clock } = setup({ store });
    const dlq = makeTopic(broker);
    const topic = makeTopic(broker);
    const subs = [
      makeSub(broker, topic),
      makeSub(broker, topic, { retainAckedMessages: true, messageRetentionDuration: 600 * SEC }),
      makeSub(broker, topic, { enableMessageOrdering: true, deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 } }),
    ];
    const dlqSub = makeSub(broker, dlq);
    const t0 = clock.now();
    for (let round = 0; round < 8; round++) {
      publishTexts(broker, topic, [`a${round}`, `b${round}`], round % 2 ? "k" : undefined);
      for (const sub of subs) {
        const ds = await pullNow(broker, sub, 3);
        if (round % 3 === 0) nack(broker, sub, ds);
        else if (round % 3 === 1) ack(broker, sub, ds.slice(0, 1));
      }
      clock.advance(120 * SEC);
      if (round === 5) broker.seek(subs[1], { time: t0 });
      if (round === 6) broker.createSnapshot(`projects/${PROJECT}/snapshots/rows-${round}`, subs[0]);
      if (round === 7) broker.seek(subs[0], { snapshot: `projects/${PROJECT}/snapshots/rows-6` });
    }
    for (const sub of [...subs, dlqSub]) expect(rowsOf(store, sub)).toEqual(liveOf(broker, sub));
    if (store instanceof RowStore) expect(store.transactions).toBeGreaterThan(8);
  });

  test("a broker rebuilt from the store resumes: records, waiting messages, attempts, kept acks, snapshots", async () => {
    const store = kind.create();
    const { broker, clock } = setup({ store });
    const dlq = makeTopic(broker);
    const topic = makeTopic(broker, { labels: { env: "x" } });
    const sub = makeSub(broker, topic, { deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 }, retainAckedMessages: true });
    const t0 = clock.now();
    publishTexts(broker, topic, ["acked", "nacked", "leased", "waiting"]);
    const ds = await pullNow(broker, sub, 3);
    ack(broker, sub, ds.slice(0, 1));
    nack(broker, sub, ds.slice(1, 2));
    const snap = `projects/${PROJECT}/snapshots/restore`;
    broker.createSnapshot(snap, sub);

    const again = new Broker({ clock: new ManualClock(clock.now()), store: kind.reopen(store) });
    expect(again.topics.get(topic).labels).toEqual({ env: "x" });
    expect(again.getSnapshot(snap).topic).toBe(topic);
    const got = await again.subscriptions.pull(sub, 10, true).result;
    expect(got.map((d) => [new TextDecoder().decode(d.message.data), d.deliveryAttempt])).toEqual([
      ["nacked", 2],
      ["leased", 2],
      ["waiting", 1],
    ]);
    again.seek(sub, { time: t0 });
    expect(texts(await again.subscriptions.pull(sub, 10, true).result)).toEqual(["acked", "nacked", "leased", "waiting"]);
  });

  test("schemas and IAM policies reach the store: a rebuilt broker has them, deletions included", () => {
    const store = kind.create();
    const { broker, clock } = setup({ store });
    const definition = JSON.stringify({ type: "record", name: "R", fields: [{ name: "a", type: "string" }] });
    const [kept, gone] = ["kept", "gone"].map((id) => broker.schemas.create(`projects/${PROJECT}`, uid(id), { type: "AVRO", definition }).name);
    const v2 = broker.schemas.commit(kept, { definition });
    const topic = makeTopic(broker, { schemaSettings: { schema: kept, lastRevisionId: v2.revisionId } });
    const sub = makeSub(broker, topic);
    const bindings = [{ role: "roles/pubsub.editor", members: ["group:g@example.com"] }];
    const policy = broker.iam.set(topic, { bindings });
    broker.iam.set(sub, { bindings });
    broker.iam.set(gone, { bindings });
    broker.schemas.delete(gone);
    broker.subscriptions.delete(sub);

    const again = new Broker({ clock: new ManualClock(clock.now()), store: kind.reopen(store) });
    expect(again.schemas.listRevisions(kept).items.map((r) => r.revisionId)).toEqual(broker.schemas.listRevisions(kept).items.map((r) => r.revisionId));
    expect(again.schemas.has(gone)).toBe(false);
    expect(again.iam.get(topic)).toEqual(policy);
    expect(again.topics.publish(topic, [msg('{"a":"x"}')])).toHaveLength(1);
    expect(caught(() => again.topics.publish(topic, [msg("{}")])).code).toBe("INVALID_ARGUMENT");
    expect(again.stats().subscriptions).toBe(0);
  });
});

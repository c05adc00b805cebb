/**
 * A broker on a SQLite data dir, closed and rebuilt from the same dir (a clean restart, manual
 * clock): ordering keys, dead-letter counts, retention, snapshots, seek and the message fields
 * behave as if nothing had happened; leases do not survive.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { SubscriptionResource } from "../../src/core/resources.ts";
import { SqliteStore } from "../../src/persistence/sqlite-store.ts";
import { PROJECT, SEC, ack, makeSub, makeTopic, msg, nack, publishTexts, pullNow, texts, topicAndSub, deadLettering } from "../helpers/core.ts";
import { cleanupDataDirs, sqliteKind } from "../helpers/stores.ts";

afterAll(cleanupDataDirs);

const MIN = 60 * SEC;

/** A broker on a fresh data dir, and restart(): close it and build a new broker from the dir. */
function durable() {
  const clock = new ManualClock();
  const f = { clock, store: sqliteKind.create() as SqliteStore, broker: null as unknown as Broker };
  f.broker = new Broker({ clock, store: f.store, pullWaitMs: 1000 });
  return Object.assign(f, {
    /** `downMs`: how long the emulator was down (the new clock starts that much later). */
    restart(downMs = 0) {
      f.store = sqliteKind.reopen(f.store) as SqliteStore;
      f.clock = new ManualClock(f.clock.now() + downMs);
      f.broker = new Broker({ clock: f.clock, store: f.store, pullWaitMs: 1000 });
    },
  });
}

describe("what a restart keeps", () => {
  test("topics, subscriptions (filter, detached, deleted topic) and their configs", async () => {
    const d = durable();
    const topic = makeTopic(d.broker, { labels: { env: "dev" }, messageRetentionDuration: 20 * MIN });
    const filtered = makeSub(d.broker, topic, { filter: 'attributes.c = "blue"', ackDeadlineSeconds: 30, enableExactlyOnceDelivery: true });
    const detached = makeSub(d.broker, topic);
    d.broker.detachSubscription(detached);
    const { topic: gone, sub: orphan } = topicAndSub(d.broker);
    publishTexts(d.broker, gone, ["kept"]);
    d.broker.topics.delete(gone);
    const before = [filtered, detached, orphan].map((s) => d.broker.subscriptions.get(s));

    d.restart();
    expect(d.broker.topics.get(topic)).toMatchObject({ labels: { env: "dev" }, messageRetentionDuration: 20 * MIN });
    expect([filtered, detached, orphan].map((s) => d.broker.subscriptions.get(s))).toEqual(before);
    expect(d.broker.subscriptions.get(orphan).topic).toBe("_deleted-topic_");
    expect(texts(await pullNow(d.broker, orphan))).toEqual(["kept"]);
    d.broker.topics.publish(topic, [msg("r", { attributes: { c: "red" } }), msg("b", { attributes: { c: "blue" } })]);
    expect(texts(await pullNow(d.broker, filtered))).toEqual(["b"]);
    expect(() => d.broker.subscriptions.pull(detached, 1, true)).toThrow();
  });

  test("message fields round-trip: bytes, attributes (hostile keys too), ordering key, publish time, id", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker, { enableMessageOrdering: true });
    const data = new Uint8Array([0, 255, 1, 254]);
    const attributes = JSON.parse('{"__proto__": "1", "constructor": "2", "ключ": "значение 🙂"}');
    const [id] = d.broker.topics.publish(topic, [{ data, attributes, orderingKey: "k" }]);
    d.broker.topics.publish(topic, [{ attributes: { only: "attributes" } }, { data: new Uint8Array([7]) }]);
    const t = d.clock.now();
    d.restart(5 * MIN);
    const [a, b, c] = await pullNow(d.broker, sub);
    expect(a.message).toMatchObject({ id, orderingKey: "k", publishTime: t });
    expect(Object.entries(a.message.attributes)).toEqual(Object.entries(attributes));
    expect(Object.getPrototypeOf(a.message.attributes)).toBe(Object.prototype);
    expect([...a.message.data]).toEqual([...data]);
    expect(b.message.data.length).toBe(0);
    expect(b.message.attributes).toEqual({ only: "attributes" });
    expect(c.message.attributes).toEqual({});
    expect(c.message.orderingKey).toBe("");
  });

  test("ids go on from where they were, even when nothing was kept; ack ids are never reused", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker);
    const first = publishTexts(d.broker, topic, ["a", "b"]);
    const acks = (await pullNow(d.broker, sub)).map((x) => x.ackId);
    d.broker.subscriptions.acknowledge(sub, acks);
    expect(d.store.heldMessages).toBe(0);
    d.restart();
    const [next] = publishTexts(d.broker, topic, ["c"]);
    expect(Number(next)).toBeGreaterThan(Number(first[1]));
    const again = (await pullNow(d.broker, sub)).map((x) => x.ackId);
    expect(again.some((x) => acks.includes(x))).toBe(false);
  });

  test("leases do not survive: a leased message is deliverable at once, its attempt counted", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker, { ackDeadlineSeconds: 600 });
    publishTexts(d.broker, topic, ["leased"]);
    expect((await pullNow(d.broker, sub))[0].deliveryAttempt).toBe(1);
    d.restart();
    const [again] = await pullNow(d.broker, sub);
    expect(texts([again])).toEqual(["leased"]);
    const dlq = makeTopic(d.broker);
    d.broker.subscriptions.update({ name: sub, deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 } } as SubscriptionResource, ["dead_letter_policy"]);
    d.broker.subscriptions.modifyAckDeadline(sub, [again.ackId], 0);
    expect((await pullNow(d.broker, sub))[0].deliveryAttempt).toBe(3);
  });

  test("an acked message stays acked; a nacked one comes back", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker);
    publishTexts(d.broker, topic, ["acked", "nacked", "waiting"]);
    const ds = await pullNow(d.broker, sub, 2);
    ack(d.broker, sub, ds.slice(0, 1));
    nack(d.broker, sub, ds.slice(1));
    d.restart();
    expect(texts(await pullNow(d.broker, sub))).toEqual(["nacked", "waiting"]);
  });
});

describe("behaviour after a restart", () => {
  test("ordering keys: a key resumes in order, one batch in flight, new publishes after the old", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker, { enableMessageOrdering: true });
    publishTexts(d.broker, topic, ["k1", "k2", "k3"], "k");
    publishTexts(d.broker, topic, ["j1", "j2"], "j");
    const first = await pullNow(d.broker, sub, 1);
    expect(texts(first)).toEqual(["k1"]);
    ack(d.broker, sub, first);
    d.restart();
    publishTexts(d.broker, topic, ["k4"], "k");
    const batch = await pullNow(d.broker, sub);
    const keyed = (key: string) => batch.filter((x) => x.message.orderingKey === key).map((x) => texts([x])[0]);
    expect(keyed("k")).toEqual(["k2", "k3", "k4"]);
    expect(keyed("j")).toEqual(["j1", "j2"]);
    expect(await pullNow(d.broker, sub)).toEqual([]); // every key has its batch out
    nack(d.broker, sub, batch.filter((x) => x.message.orderingKey === "k"));
    expect(texts(await pullNow(d.broker, sub))).toEqual(["k2", "k3", "k4"]);
  });

  test("dead-letter counts go on across a restart; the message is dead-lettered at the limit", async () => {
    const d = durable();
    const { dlqSub, topic, sub } = deadLettering(d.broker);
    publishTexts(d.broker, topic, ["poison"]);
    for (let i = 1; i <= 3; i++) {
      const got = await pullNow(d.broker, sub);
      expect(got[0].deliveryAttempt).toBe(i);
      nack(d.broker, sub, got);
    }
    d.restart();
    for (let i = 4; i <= 5; i++) {
      const got = await pullNow(d.broker, sub);
      expect(got[0].deliveryAttempt).toBe(i);
      nack(d.broker, sub, got);
    }
    expect(await pullNow(d.broker, sub)).toEqual([]);
    const dead = await pullNow(d.broker, dlqSub);
    expect(texts(dead)).toEqual(["poison"]);
    expect(dead[0].message.attributes.CloudPubSubDeadLetterSourceDeliveryCount).toBe("5");
  });

  test("dead-lettering is one transaction: a crash between the copy and the removal keeps neither half", async () => {
    const d = durable();
    const { dlqSub, topic, sub } = deadLettering(d.broker);
    publishTexts(d.broker, topic, ["poison"]);
    for (let i = 1; i <= 4; i++) nack(d.broker, sub, await pullNow(d.broker, sub));
    const last = await pullNow(d.broker, sub);
    // The process "dies" after the copy reached the dead-letter topic, before the source let go.
    d.store.removeEntries = () => {
      throw new Error("crash");
    };
    expect(() => nack(d.broker, sub, last)).toThrow("crash");
    d.restart();
    expect(await pullNow(d.broker, dlqSub)).toEqual([]);
    const again = await pullNow(d.broker, sub);
    expect(texts(again)).toEqual(["poison"]);
    expect(again[0].deliveryAttempt).toBe(6);
  });

  test("retention: what ran out while the emulator was down is gone at start, the rest on time", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker, { messageRetentionDuration: 10 * MIN });
    publishTexts(d.broker, topic, ["old"]);
    d.clock.advance(5 * MIN);
    publishTexts(d.broker, topic, ["young"]);
    d.restart(6 * MIN);
    expect(texts(await pullNow(d.broker, sub, 10))).toEqual(["young"]);
    expect(d.store.storedEntries(sub).length).toBe(1);
    d.clock.advance(5 * MIN);
    expect(await pullNow(d.broker, sub)).toEqual([]);
    expect(d.store.heldMessages).toBe(0);
  });

  test("retain_acked_messages and topic retention: a seek to a time replays across the restart", async () => {
    const d = durable();
    const topic = makeTopic(d.broker, { messageRetentionDuration: 60 * MIN });
    const keeper = makeSub(d.broker, topic, { retainAckedMessages: true });
    const t0 = d.clock.now();
    publishTexts(d.broker, topic, ["a", "b"]);
    ack(d.broker, keeper, await pullNow(d.broker, keeper));
    d.restart(MIN);
    const late = makeSub(d.broker, topic); // created after the publish: only the topic's log has them
    d.broker.seek(keeper, { time: t0 });
    d.broker.seek(late, { time: t0 });
    expect(texts(await pullNow(d.broker, keeper))).toEqual(["a", "b"]);
    expect(texts(await pullNow(d.broker, late))).toEqual(["a", "b"]);
  });

  test("snapshots: kept, seekable, still expiring on time; what they hold is freed after", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker);
    publishTexts(d.broker, topic, ["before"]);
    const snap = `projects/${PROJECT}/snapshots/restart-snap`;
    d.broker.createSnapshot(snap, sub, { team: "x" });
    publishTexts(d.broker, topic, ["after"]);
    ack(d.broker, sub, await pullNow(d.broker, sub));
    d.restart(MIN);
    expect(d.broker.getSnapshot(snap)).toMatchObject({ topic, labels: { team: "x" } });
    expect(d.broker.topics.listSnapshots(topic).items).toEqual([snap]);
    d.broker.seek(sub, { snapshot: snap });
    expect(texts(await pullNow(d.broker, sub))).toEqual(["before", "after"]);
    d.clock.advance(7 * 24 * 60 * MIN);
    expect(() => d.broker.getSnapshot(snap)).toThrow();
    expect(d.store.heldMessages).toBe(0);
  });

  test("a seek to a time restores what the log kept since the subscription was created (snapshot tail)", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker);
    const other = makeSub(d.broker, topic);
    d.broker.createSnapshot(`projects/${PROJECT}/snapshots/tail`, other);
    const t0 = d.clock.now();
    publishTexts(d.broker, topic, ["x", "y"]);
    ack(d.broker, sub, await pullNow(d.broker, sub));
    d.restart();
    d.broker.seek(sub, { time: t0 });
    expect(texts(await pullNow(d.broker, sub))).toEqual(["x", "y"]);
  });

  test("held accounting and rows after restart match a broker that never stopped", async () => {
    const d = durable();
    const { topic, sub } = topicAndSub(d.broker, { retainAckedMessages: true });
    publishTexts(d.broker, topic, ["12345", "678"]);
    ack(d.broker, sub, await pullNow(d.broker, sub, 1));
    const stats = d.broker.stats();
    const rows = d.store.storedEntries(sub);
    d.restart();
    expect(d.broker.stats()).toEqual(stats);
    expect(d.store.storedEntries(sub)).toEqual(rows);
    expect([...d.broker.subscriptions.entries(sub)].map((e) => [e.msg.seq, e.attempts, e.acked])).toEqual(rows.map((r) => [r.seq, r.attempts, r.acked]));
  });
});

/** Snapshots on the manual clock: create, expiry, get, list, update, delete, and what they keep. */
import { describe, expect, test } from "bun:test";
import { SEC, ack, caught, makeSub, makeTopic, publishTexts, pullNow, setup, subName, texts, topicAndSub, PROJECT, expectRefused, setupWithSub, topicWithSubs } from "../helpers/core.ts";

const HOUR = 3600 * SEC;
const DAY = 24 * HOUR;
let n = 0;
const snapName = (project = PROJECT) => `projects/${project}/snapshots/snap-${++n}`;

describe("CreateSnapshot", () => {
  test("expires 7 days after the oldest unacked message was published", () => {
    const { broker, clock, topic, sub } = setupWithSub();
    const t0 = clock.now();
    publishTexts(broker, topic, ["a"]);
    clock.advance(3 * DAY);
    const s = broker.createSnapshot(snapName(), sub);
    expect(s.expireTime).toBe(t0 + 7 * DAY);
    expect(s.topic).toBe(topic);
  });

  test("without a backlog it expires 7 days after creation", () => {
    const { broker, clock, sub } = setupWithSub();
    expect(broker.createSnapshot(snapName(), sub).expireTime).toBe(clock.now() + 7 * DAY);
  });

  test("a snapshot that would expire within an hour is FAILED_PRECONDITION", () => {
    const { broker, clock, topic, sub } = setupWithSub({ messageRetentionDuration: 10 * DAY });
    publishTexts(broker, topic, ["ancient"]);
    clock.advance(7 * DAY - HOUR + SEC);
    expect(caught(() => broker.createSnapshot(snapName(), sub)).code).toBe("FAILED_PRECONDITION");
  });

  test("names: ALREADY_EXISTS, INVALID_ARGUMENT, NOT_FOUND subscription, generated when empty", () => {
    const { broker, sub } = setupWithSub();
    const name = snapName();
    broker.createSnapshot(name, sub);
    expect(caught(() => broker.createSnapshot(name, sub)).code).toBe("ALREADY_EXISTS");
    const bad = caught(() => broker.createSnapshot("projects/p/snapshots/x", sub));
    expect(bad.code).toBe("INVALID_ARGUMENT");
    expect(bad.message).toContain("name");
    const missing = caught(() => broker.createSnapshot(snapName(), subName()));
    expect(missing.code).toBe("NOT_FOUND");
    const generated = broker.createSnapshot("", sub);
    expect(generated.name).toStartWith(`projects/${PROJECT}/snapshots/`);
    expect(broker.getSnapshot(generated.name).name).toBe(generated.name);
  });

  test("labels are validated like a topic's", () => {
    const { broker, sub } = setupWithSub();
    expect(caught(() => broker.createSnapshot(snapName(), sub, { "Bad Key": "v" })).code).toBe("INVALID_ARGUMENT");
    expect(broker.createSnapshot(snapName(), sub, { env: "test" }).labels).toEqual({ env: "test" });
  });
});

describe("what a snapshot keeps", () => {
  test("its subscription's unacked messages, and every later message of the topic", () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["before"]);
    broker.createSnapshot(snapName(), sub);
    broker.subscriptions.delete(sub);
    expect(broker.stats().heldMessages).toBe(1);
    publishTexts(broker, topic, ["after"]);
    expect(broker.stats().heldMessages).toBe(2);
  });

  test("deleting it frees what only it kept", () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["before"]);
    const name = snapName();
    broker.createSnapshot(name, sub);
    publishTexts(broker, topic, ["after"]);
    broker.subscriptions.delete(sub);
    broker.deleteSnapshot(name);
    expect(broker.stats()).toMatchObject({ heldMessages: 0, heldBytes: 0, snapshots: 0 });
  });

  test("it expires on the clock: gone from Get and List, its messages freed", () => {
    const { broker, clock, topic, sub } = setupWithSub();
    const name = snapName();
    broker.createSnapshot(name, sub);
    broker.subscriptions.delete(sub);
    publishTexts(broker, topic, ["kept"]);
    clock.advance(7 * DAY - SEC);
    expect(broker.getSnapshot(name).name).toBe(name);
    expect(broker.stats().heldMessages).toBe(1);
    clock.advance(SEC);
    expect(caught(() => broker.getSnapshot(name)).code).toBe("NOT_FOUND");
    expect(broker.listSnapshots(`projects/${PROJECT}`).items.map((s) => s.name)).not.toContain(name);
    expect(broker.stats().heldMessages).toBe(0);
  });
});

describe("Get, List, Update, Delete", () => {
  test("ListSnapshots is per project and paged; ListTopicSnapshots lists names of the topic", () => {
    const { broker, topic, sub } = setupWithSub();
    const other = topicAndSub(broker);
    const project = `proj-${++n}`;
    const names = [1, 2, 3].map(() => broker.createSnapshot(snapName(project), sub).name).sort();
    broker.createSnapshot(snapName(project), other.sub);
    const page1 = broker.listSnapshots(`projects/${project}`, 2);
    expect(page1.items).toHaveLength(2);
    const page2 = broker.listSnapshots(`projects/${project}`, 2, page1.nextPageToken);
    expect(page2.items).toHaveLength(2);
    expect(page2.nextPageToken).toBe("");
    const byTopic = broker.topics.listSnapshots(topic);
    expect(byTopic.items).toEqual(names);
    expect(broker.topics.listSnapshots(topic, 1).nextPageToken).not.toBe("");
  });

  test("ListTopicSnapshots of a missing topic is NOT_FOUND", () => {
    const { broker } = setup();
    expect(caught(() => broker.topics.listSnapshots(`projects/${PROJECT}/topics/missing-t`)).code).toBe("NOT_FOUND");
  });

  test("UpdateSnapshot changes labels and brings expire_time closer; masks are checked", () => {
    const { broker, clock, sub } = setupWithSub();
    const name = snapName();
    const s = broker.createSnapshot(name, sub);
    const up = broker.updateSnapshot({ ...s, labels: { a: "b" }, expireTime: clock.now() + DAY }, ["labels", "expire_time"]);
    expect(up.labels).toEqual({ a: "b" });
    expect(up.expireTime).toBe(clock.now() + DAY);
    expect(caught(() => broker.updateSnapshot({ ...s }, [])).message).toContain("update_mask");
    expect(caught(() => broker.updateSnapshot({ ...s }, ["topic"])).message).toContain("topic");
    expect(caught(() => broker.updateSnapshot({ ...s }, ["bogus"])).code).toBe("INVALID_ARGUMENT");
    const late = caught(() => broker.updateSnapshot({ ...s, expireTime: clock.now() + 8 * DAY }, ["expire_time"]));
    expect(late.message).toContain("expire_time");
    const past = caught(() => broker.updateSnapshot({ ...s, expireTime: clock.now() - SEC }, ["expire_time"]));
    expect(past.code).toBe("INVALID_ARGUMENT");
    clock.advance(DAY);
    expect(caught(() => broker.getSnapshot(name)).code).toBe("NOT_FOUND");
  });

  test("mask paths into a scalar, a map key or through __proto__ are INVALID_ARGUMENT naming them, not a crash", () => {
    const { broker, topic, sub } = setupWithSub();
    const s = broker.createSnapshot(snapName(), sub);
    for (const path of ["expire_time.seconds", "expire_time.__proto__.x", "labels.__proto__", "labels..x", "labels.a"]) {
      expectRefused(() => broker.updateSnapshot({ ...s }, [path]), "INVALID_ARGUMENT", path);
    }
    const e = caught(() => broker.topics.update({ name: topic, labels: {} }, ["message_retention_duration.seconds"]));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(broker.topics.get(topic).messageRetentionDuration).toBeUndefined();
    expect(broker.updateSnapshot({ ...s, labels: { a: "1" } }, ["labels"]).labels).toEqual({ a: "1" });
  });

  test("DeleteSnapshot of a missing one is NOT_FOUND; Get of a malformed name INVALID_ARGUMENT", () => {
    const { broker } = setup();
    expect(caught(() => broker.deleteSnapshot(snapName())).code).toBe("NOT_FOUND");
    expect(caught(() => broker.getSnapshot("projects/p/topics/t")).code).toBe("INVALID_ARGUMENT");
  });

  test("a snapshot outlives its topic, naming _deleted-topic_", () => {
    const { broker, topic, sub } = setupWithSub();
    const name = snapName();
    broker.createSnapshot(name, sub);
    broker.topics.delete(topic);
    expect(broker.getSnapshot(name).topic).toBe("_deleted-topic_");
    makeTopic(broker, { name: topic });
    expect(broker.topics.listSnapshots(topic).items).toEqual([]);
  });
});

describe("snapshot across two subscriptions of a topic", () => {
  test("a snapshot of one subscription replays into another of the same topic", async () => {
    const { broker } = setup();
    const { topic, subs: [a, b] } = topicWithSubs(broker, 2);
    publishTexts(broker, topic, ["1", "2"]);
    ack(broker, a, (await pullNow(broker, a)).slice(0, 1)); // a acks "1", leaves "2"
    const name = snapName();
    broker.createSnapshot(name, a);
    publishTexts(broker, topic, ["3"]);
    ack(broker, b, await pullNow(broker, b)); // b acks everything
    broker.seek(b, { snapshot: name });
    expect(texts(await pullNow(broker, b))).toEqual(["2", "3"]);
  });
});

/**
 * Per-project resource limits in the core, at the real service's numbers: the create past the
 * limit is RESOURCE_EXHAUSTED naming the resource and the limit, another project is not affected,
 * and every way a resource goes (delete, expiry, reset) frees its slot.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Broker } from "../../src/core/broker.ts";
import { PROJECT_QUOTAS } from "../../src/core/rules/quotas.ts";
import type { TopicResource } from "../../src/core/resources.ts";
import { cleanupDataDirs, sqliteKind } from "../helpers/stores.ts";
import { SEC, caught, makeSub, makeTopic, setup, subName as subPath, topicName as topicPath } from "../helpers/core.ts";

/** Names in a project of the test's own: ids and projects long enough to be valid. */
const topicName = (id: string, project: string) => topicPath(`topic-${id}`, `proj-${project}`);
const subName = (id: string, project: string) => subPath(`sub-${id}`, `proj-${project}`);
const snapName = (id: string, project: string) => `projects/proj-${project}/snapshots/snap-${id}`;

const AVRO = JSON.stringify({ type: "record", name: "R", fields: [{ name: "a", type: "string" }] });
const DAY = 24 * 3600 * SEC;

test("the defaults are the real service's numbers", () => {
  expect(PROJECT_QUOTAS).toEqual({ topics: 10_000, subscriptions: 10_000, snapshots: 5_000, schemas: 10_000 });
});

describe("at the real limits", () => {
  test("10,000 topics per project; the 10,001st is refused, another project's is not, a delete frees a slot", () => {
    const { broker } = setup();
    for (let i = 0; i < 10_000; i++) makeTopic(broker, { name: topicName(`t${i}`, "full") });
    const err = caught(() => makeTopic(broker, { name: topicName("one-more", "full") }));
    expect(err.code).toBe("RESOURCE_EXHAUSTED");
    expect(err.message).toContain("projects/proj-full/topics/topic-one-more");
    expect(err.message).toContain('type="topics-per-project", current=10000, maximum=10000');
    makeTopic(broker, { name: topicName("elsewhere", "other") });
    // An existing name is still ALREADY_EXISTS, not the quota.
    expect(caught(() => makeTopic(broker, { name: topicName("t0", "full") })).code).toBe("ALREADY_EXISTS");
    broker.topics.delete(topicName("t5", "full"));
    makeTopic(broker, { name: topicName("one-more", "full") });
    expect(caught(() => makeTopic(broker, { name: topicName("two-more", "full") })).code).toBe("RESOURCE_EXHAUSTED");
  });

  test("10,000 subscriptions per project, detached ones and those of deleted topics included", () => {
    const { broker } = setup();
    const topic = makeTopic(broker, { name: topicName("t", "subs") });
    for (let i = 0; i < 10_000; i++) makeSub(broker, topic, { name: subName(`s${i}`, "subs") });
    broker.detachSubscription(subName("s0", "subs"));
    broker.topics.delete(topic);
    const other = makeTopic(broker, { name: topicName("t2", "subs") });
    const err = caught(() => makeSub(broker, other, { name: subName("one-more", "subs") }));
    expect(err.code).toBe("RESOURCE_EXHAUSTED");
    expect(err.message).toContain('type="subscriptions-per-project", current=10000, maximum=10000');
    expect(err.message).toContain("projects/proj-subs/subscriptions/sub-one-more");
    broker.subscriptions.delete(subName("s0", "subs"));
    makeSub(broker, other, { name: subName("one-more", "subs") });
  });

  test("5,000 snapshots per project; an expired one frees its slot", () => {
    const { broker, clock } = setup();
    const topic = makeTopic(broker, { name: topicName("t", "snaps") });
    const sub = makeSub(broker, topic, { name: subName("s", "snaps") });
    for (let i = 0; i < 5_000; i++) broker.createSnapshot(snapName(`n${i}`, "snaps"), sub);
    const err = caught(() => broker.createSnapshot(snapName("one-more", "snaps"), sub));
    expect(err.code).toBe("RESOURCE_EXHAUSTED");
    expect(err.message).toContain('type="snapshots-per-project", current=5000, maximum=5000');
    expect(err.message).toContain(snapName("one-more", "snaps"));
    broker.deleteSnapshot(snapName("n1", "snaps"));
    broker.createSnapshot(snapName("one-more", "snaps"), sub);
    // All of them expire after 7 days: every slot is free again.
    clock.advance(7 * DAY + SEC);
    broker.createSnapshot(snapName("after-expiry", "snaps"), sub);
    expect(broker.listSnapshots("projects/proj-snaps").items.length).toBe(1);
  });

  test("10,000 schemas per project", () => {
    const { broker } = setup();
    for (let i = 0; i < 10_000; i++) broker.schemas.create("projects/proj-schemas", `schema-${i}`, { type: "AVRO", definition: AVRO });
    const err = caught(() => broker.schemas.create("projects/proj-schemas", "one-more", { type: "AVRO", definition: AVRO }));
    expect(err.code).toBe("RESOURCE_EXHAUSTED");
    expect(err.message).toContain('type="schemas-per-project", current=10000, maximum=10000');
    expect(err.message).toContain("projects/proj-schemas/schemas/one-more");
    broker.schemas.delete("projects/proj-schemas/schemas/schema-3");
    broker.schemas.create("projects/proj-schemas", "one-more", { type: "AVRO", definition: AVRO });
  });
});

describe("lowered limits (--project-quotas)", () => {
  const quotas = { topics: 2, subscriptions: 2, snapshots: 1, schemas: 1 };

  test("reset of a project frees its slots, and only its own", () => {
    const { broker } = setup({ quotas });
    for (const p of ["a", "b"]) for (const t of ["t1", "t2"]) makeTopic(broker, { name: topicName(t, p) });
    expect(caught(() => makeTopic(broker, { name: topicName("t3", "a") })).code).toBe("RESOURCE_EXHAUSTED");
    broker.reset("projects/proj-a");
    makeTopic(broker, { name: topicName("t3", "a") });
    expect(caught(() => makeTopic(broker, { name: topicName("t3", "b") })).code).toBe("RESOURCE_EXHAUSTED");
  });

  test("an expired subscription frees its slot", () => {
    const { broker, clock } = setup({ quotas });
    const topic = makeTopic(broker, { name: topicName("t", "exp") });
    makeSub(broker, topic, { name: subName("s1", "exp"), expirationPolicy: { ttl: DAY }, messageRetentionDuration: 600 * SEC });
    makeSub(broker, topic, { name: subName("s2", "exp") });
    expect(caught(() => makeSub(broker, topic, { name: subName("s3", "exp") })).code).toBe("RESOURCE_EXHAUSTED");
    clock.advance(DAY + SEC);
    makeSub(broker, topic, { name: subName("s3", "exp") });
  });

  test("a refused create leaves nothing behind", () => {
    const { broker } = setup({ quotas });
    makeTopic(broker, { name: topicName("t1", "clean") });
    makeTopic(broker, { name: topicName("t2", "clean") });
    caught(() => broker.topics.create({ name: topicName("t3", "clean"), labels: {} } as TopicResource));
    expect(caught(() => broker.topics.get(topicName("t3", "clean"))).code).toBe("NOT_FOUND");
    expect(broker.topics.list("projects/proj-clean").items.length).toBe(2);
  });

  test("a broker restarted on its data dir counts what it restored", () => {
    const { broker, clock } = setup({ quotas, store: sqliteKind.create() });
    const topic = makeTopic(broker, { name: topicName("t1", "kept") });
    makeTopic(broker, { name: topicName("t2", "kept") });
    const sub = makeSub(broker, topic, { name: subName("s1", "kept") });
    broker.createSnapshot(snapName("n1", "kept"), sub);
    broker.schemas.create("projects/proj-kept", "schema-1", { type: "AVRO", definition: AVRO });
    const restored = new Broker({ clock, store: sqliteKind.reopen(broker.store), quotas });
    expect(caught(() => restored.schemas.create("projects/proj-kept", "schema-2", { type: "AVRO", definition: AVRO })).code).toBe("RESOURCE_EXHAUSTED");
    expect(caught(() => makeTopic(restored, { name: topicName("t3", "kept") })).code).toBe("RESOURCE_EXHAUSTED");
    expect(caught(() => restored.createSnapshot(snapName("n2", "kept"), sub)).code).toBe("RESOURCE_EXHAUSTED");
    makeSub(restored, topic, { name: subName("s2", "kept") });
    expect(caught(() => makeSub(restored, topic, { name: subName("s3", "kept") })).code).toBe("RESOURCE_EXHAUSTED");
  });
});

afterAll(() => cleanupDataDirs());

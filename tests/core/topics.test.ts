import { describe, expect, test } from "bun:test";
import { DELETED_TOPIC } from "../../src/core/rules/names.ts";
import { caught, makeSub, makeTopic, publishTexts, pullNow, setup, subName, texts, topicName, expectRefused } from "../helpers/core.ts";

describe("topic CRUD", () => {
  test("createTopic returns the topic and getTopic finds it", () => {
    const { broker } = setup();
    const name = topicName();
    const created = broker.topics.create({ name, labels: { team: "a" } });
    expect(created.name).toBe(name);
    expect(created.labels).toEqual({ team: "a" });
    expect(broker.topics.get(name).name).toBe(name);
  });

  test("createTopic of an existing topic is ALREADY_EXISTS naming it", () => {
    const { broker } = setup();
    const name = makeTopic(broker);
    expectRefused(() => broker.topics.create({ name, labels: {} }), "ALREADY_EXISTS", name);
  });

  test("getTopic of a missing topic is NOT_FOUND naming it", () => {
    const { broker } = setup();
    const name = topicName();
    expectRefused(() => broker.topics.get(name), "NOT_FOUND", name);
  });

  test("deleteTopic removes it; a second delete is NOT_FOUND", () => {
    const { broker } = setup();
    const name = makeTopic(broker);
    broker.topics.delete(name);
    expect(caught(() => broker.topics.get(name)).code).toBe("NOT_FOUND");
    expect(caught(() => broker.topics.delete(name)).code).toBe("NOT_FOUND");
  });

  test("publish to a missing topic is NOT_FOUND", () => {
    const { broker } = setup();
    const e = caught(() => publishTexts(broker, topicName(), ["x"]));
    expect(e.code).toBe("NOT_FOUND");
  });

  test("createTopic with an invalid name is INVALID_ARGUMENT", () => {
    const { broker } = setup();
    expect(caught(() => broker.topics.create({ name: "projects/p/topics/ab", labels: {} })).code).toBe("INVALID_ARGUMENT");
  });

  test("topic retention outside 10 min..31 d is INVALID_ARGUMENT naming message_retention_duration", () => {
    const { broker } = setup();
    expectRefused(() => broker.topics.create({ name: topicName(), labels: {}, messageRetentionDuration: 60_000 }), "INVALID_ARGUMENT", "message_retention_duration");
  });

  test("invalid label keys are INVALID_ARGUMENT", () => {
    const { broker } = setup();
    const e = caught(() => broker.topics.create({ name: topicName(), labels: { Upper: "x" } }));
    expect(e.code).toBe("INVALID_ARGUMENT");
  });
});

describe("delete topic with subscriptions", () => {
  test("a subscription of a deleted topic reports _deleted-topic_", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic);
    broker.topics.delete(topic);
    expect(broker.subscriptions.get(sub).topic).toBe(DELETED_TOPIC);
    expect(DELETED_TOPIC).toBe("_deleted-topic_");
  });

  test("a re-created topic of the same name does not feed the orphaned subscription", async () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic);
    broker.topics.delete(topic);
    makeTopic(broker, { name: topic });
    publishTexts(broker, topic, ["after"]);
    expect(await pullNow(broker, sub)).toEqual([]);
    expect(broker.topics.listSubscriptions(topic).items).toEqual([]);
  });

  test("a subscription whose topic was deleted keeps its backlog", async () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic);
    publishTexts(broker, topic, ["kept"]);
    broker.topics.delete(topic);
    expect(texts(await pullNow(broker, sub))).toEqual(["kept"]);
  });

  test("listTopicSubscriptions of a deleted topic is NOT_FOUND", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    makeSub(broker, topic);
    broker.topics.delete(topic);
    expect(caught(() => broker.topics.listSubscriptions(topic)).code).toBe("NOT_FOUND");
  });

  test("deleting a subscription detaches it from its topic's list", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const keep = makeSub(broker, topic);
    const gone = makeSub(broker, topic);
    broker.subscriptions.delete(gone);
    expect(broker.topics.listSubscriptions(topic).items).toEqual([keep]);
    expect(caught(() => broker.subscriptions.get(gone)).code).toBe("NOT_FOUND");
    expect(subName()).not.toBe(gone);
  });
});

describe("updateTopic masks", () => {
  test("an empty update mask is INVALID_ARGUMENT naming update_mask", () => {
    const { broker } = setup();
    const name = makeTopic(broker);
    expectRefused(() => broker.topics.update({ name, labels: { a: "b" } }, []), "INVALID_ARGUMENT", "update_mask");
  });

  test("an unknown path is INVALID_ARGUMENT naming the path", () => {
    const { broker } = setup();
    const name = makeTopic(broker);
    expectRefused(() => broker.topics.update({ name, labels: {} }, ["no_such_field"]), "INVALID_ARGUMENT", "no_such_field");
  });

  test("the immutable name path is INVALID_ARGUMENT naming it", () => {
    const { broker } = setup();
    const name = makeTopic(broker);
    expectRefused(() => broker.topics.update({ name, labels: {} }, ["name"]), "INVALID_ARGUMENT", '"name"');
  });

  test("labels update replaces the labels and nothing else", () => {
    const { broker } = setup();
    const name = makeTopic(broker, { labels: { old: "1" }, messageRetentionDuration: 3_600_000 });
    const updated = broker.topics.update({ name, labels: { fresh: "2" } }, ["labels"]);
    expect(updated.labels).toEqual({ fresh: "2" });
    expect(updated.messageRetentionDuration).toBe(3_600_000);
    expect(broker.topics.get(name).labels).toEqual({ fresh: "2" });
  });

  test("a failed update leaves the topic unchanged", () => {
    const { broker } = setup();
    const name = makeTopic(broker, { labels: { keep: "yes" } });
    caught(() => broker.topics.update({ name, labels: { BAD: "x" } }, ["labels"]));
    expect(broker.topics.get(name).labels).toEqual({ keep: "yes" });
  });

  test("updateTopic of a missing topic is NOT_FOUND", () => {
    const { broker } = setup();
    expect(caught(() => broker.topics.update({ name: topicName(), labels: {} }, ["labels"])).code).toBe("NOT_FOUND");
  });
});

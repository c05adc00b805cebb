import { describe, expect, test } from "bun:test";
import type { SubscriptionResource } from "../../src/core/resources.ts";
import { SEC, caught, makeSub, makeTopic, pullNow, setup, subName, topicName, expectRefused, setupWithSub } from "../helpers/core.ts";

const DAY = 24 * 3600 * SEC;

describe("subscription CRUD and defaults", () => {
  test("defaults: ack deadline 10 s, retention 7 d, expiration 31 d", () => {
    const { broker, sub } = setupWithSub();
    const s = broker.subscriptions.get(sub);
    expect(s.ackDeadlineSeconds).toBe(10);
    expect(s.messageRetentionDuration).toBe(7 * DAY);
    expect(s.expirationPolicy?.ttl).toBe(31 * DAY);
    expect(s.enableMessageOrdering).toBe(false);
    expect(s.detached).toBe(false);
  });

  test("createSubscription of an existing name is ALREADY_EXISTS", () => {
    const { broker, topic, sub } = setupWithSub();
    expectRefused(() => makeSub(broker, topic, { name: sub }), "ALREADY_EXISTS", sub);
  });

  test("createSubscription on a missing topic is NOT_FOUND naming the topic", () => {
    const { broker } = setup();
    const missing = topicName();
    expectRefused(() => makeSub(broker, missing), "NOT_FOUND", missing);
  });

  test("createSubscription with a malformed topic is INVALID_ARGUMENT naming topic", () => {
    const { broker } = setup();
    expectRefused(() => makeSub(broker, "projects/p/subscriptions/not-a-topic"), "INVALID_ARGUMENT", "topic");
  });

  test.each([9, 601])("ack deadline %i on create is INVALID_ARGUMENT naming ack_deadline_seconds", (secs) => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    expectRefused(() => makeSub(broker, topic, { ackDeadlineSeconds: secs }), "INVALID_ARGUMENT", "ack_deadline_seconds");
  });

  test("ack deadline bounds 10 and 600 are accepted", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    expect(broker.subscriptions.get(makeSub(broker, topic, { ackDeadlineSeconds: 10 })).ackDeadlineSeconds).toBe(10);
    expect(broker.subscriptions.get(makeSub(broker, topic, { ackDeadlineSeconds: 600 })).ackDeadlineSeconds).toBe(600);
  });

  test("dead-letter topic that does not exist is NOT_FOUND", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const dlq = topicName();
    expectRefused(() => makeSub(broker, topic, { deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 } }), "NOT_FOUND", dlq);
  });

  test("max_delivery_attempts 4 or 101 is INVALID_ARGUMENT; 0 defaults to 5", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const dlq = makeTopic(broker);
    for (const n of [4, 101]) {
      expectRefused(() => makeSub(broker, topic, { deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: n } }), "INVALID_ARGUMENT", "max_delivery_attempts");
    }
    const s = makeSub(broker, topic, { deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 0 } });
    expect(broker.subscriptions.get(s).deadLetterPolicy?.maxDeliveryAttempts).toBe(5);
  });

  test("expiration ttl under one day is INVALID_ARGUMENT naming expiration_policy", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    expectRefused(() => makeSub(broker, topic, { expirationPolicy: { ttl: 3600 * SEC } }), "INVALID_ARGUMENT", "expiration_policy");
  });

  test("retry backoff over 600 s is INVALID_ARGUMENT naming the field", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    expectRefused(() => makeSub(broker, topic, { retryPolicy: { minimumBackoff: 601 * SEC } }), "INVALID_ARGUMENT", "minimum_backoff");
  });

  test("a filter over 256 bytes is INVALID_ARGUMENT naming filter", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    expectRefused(() => makeSub(broker, topic, { filter: `attributes.k = "${"x".repeat(260)}"` }), "INVALID_ARGUMENT", "filter");
  });

  test("deleteSubscription then getSubscription is NOT_FOUND", () => {
    const { broker, sub } = setupWithSub();
    broker.subscriptions.delete(sub);
    expect(caught(() => broker.subscriptions.get(sub)).code).toBe("NOT_FOUND");
    expect(caught(() => broker.subscriptions.delete(sub)).code).toBe("NOT_FOUND");
  });

  test("pull on a missing subscription is NOT_FOUND", () => {
    const { broker } = setup();
    expect(caught(() => broker.subscriptions.pull(subName(), 1, true)).code).toBe("NOT_FOUND");
  });

  test("pull on a detached subscription is FAILED_PRECONDITION", () => {
    const { broker, sub } = setupWithSub();
    broker.detachSubscription(sub);
    expect(broker.subscriptions.get(sub).detached).toBe(true);
    expectRefused(() => broker.subscriptions.pull(sub, 1, true), "FAILED_PRECONDITION", "detached");
  });

  test("pull with max_messages 0 is INVALID_ARGUMENT naming max_messages", () => {
    const { broker, sub } = setupWithSub();
    expectRefused(() => broker.subscriptions.pull(sub, 0, true), "INVALID_ARGUMENT", "max_messages");
  });
});

describe("updateSubscription masks", () => {
  const current = (broker: ReturnType<typeof setup>["broker"], name: string): SubscriptionResource =>
    structuredClone(broker.subscriptions.get(name));

  test("an empty mask is INVALID_ARGUMENT naming update_mask", () => {
    const { broker, sub } = setupWithSub();
    expectRefused(() => broker.subscriptions.update({ ...current(broker, sub), ackDeadlineSeconds: 30 }, []), "INVALID_ARGUMENT", "update_mask");
  });

  test("an unknown path is INVALID_ARGUMENT naming it", () => {
    const { broker, sub } = setupWithSub();
    expectRefused(() => broker.subscriptions.update(current(broker, sub), ["bogus_path"]), "INVALID_ARGUMENT", "bogus_path");
  });

  test.each(["enable_message_ordering", "filter", "name", "topic"])("immutable path %s is INVALID_ARGUMENT naming it", (path) => {
    const { broker, sub } = setupWithSub();
    const e = caught(() =>
      broker.subscriptions.update({ ...current(broker, sub), enableMessageOrdering: true, filter: 'attributes:x' }, [path]),
    );
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toContain(path);
    expect(broker.subscriptions.get(sub).enableMessageOrdering).toBe(false);
    expect(broker.subscriptions.get(sub).filter).toBe("");
  });

  test("labels update changes labels only", () => {
    const { broker, sub } = setupWithSub({ labels: { a: "1" }, ackDeadlineSeconds: 42 });
    const updated = broker.subscriptions.update({ ...current(broker, sub), labels: { b: "2" }, ackDeadlineSeconds: 99 }, ["labels"]);
    expect(updated.labels).toEqual({ b: "2" });
    expect(updated.ackDeadlineSeconds).toBe(42);
    expect(broker.subscriptions.get(sub).labels).toEqual({ b: "2" });
  });

  test("ack_deadline_seconds update is validated and applied", () => {
    const { broker, sub } = setupWithSub();
    expect(broker.subscriptions.update({ ...current(broker, sub), ackDeadlineSeconds: 60 }, ["ack_deadline_seconds"]).ackDeadlineSeconds).toBe(60);
    const e = caught(() => broker.subscriptions.update({ ...current(broker, sub), ackDeadlineSeconds: 601 }, ["ack_deadline_seconds"]));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(broker.subscriptions.get(sub).ackDeadlineSeconds).toBe(60);
  });

  test("an updated ack deadline applies to later deliveries", async () => {
    const { broker, clock, topic, sub } = setupWithSub();
    broker.subscriptions.update({ ...current(broker, sub), ackDeadlineSeconds: 60 }, ["ack_deadline_seconds"]);
    broker.topics.publish(topic, [{ data: new Uint8Array([1]) }]);
    expect((await pullNow(broker, sub)).length).toBe(1);
    clock.advance(30 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
    clock.advance(31 * SEC);
    expect((await pullNow(broker, sub)).length).toBe(1);
  });
});

import { describe, expect, test } from "bun:test";
import { SEC, ack, makeSub, makeTopic, msg, nack, publishTexts, pullNow, setup, texts, topicAndSub, setupWithSub, deadLettering } from "../helpers/core.ts";

describe("retry policy", () => {
  test("a nack is held back by minimum_backoff", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ retryPolicy: { minimumBackoff: 10 * SEC, maximumBackoff: 600 * SEC } });
    publishTexts(broker, topic, ["a"]);
    nack(broker, sub, await pullNow(broker, sub));
    expect(await pullNow(broker, sub)).toEqual([]);
    clock.advance(9 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
    clock.advance(1 * SEC);
    expect(texts(await pullNow(broker, sub))).toEqual(["a"]);
  });

  test("backoff grows with attempts and is capped by maximum_backoff", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ retryPolicy: { minimumBackoff: 10 * SEC, maximumBackoff: 15 * SEC } });
    publishTexts(broker, topic, ["a"]);
    nack(broker, sub, await pullNow(broker, sub));
    clock.advance(10 * SEC);
    const second = await pullNow(broker, sub);
    expect(second[0].deliveryAttempt).toBe(2);
    nack(broker, sub, second);
    clock.advance(14 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
    clock.advance(1 * SEC); // 15 s (the cap), not 20 s
    expect((await pullNow(broker, sub))[0].deliveryAttempt).toBe(3);
  });

  test("an expiry is held back by the backoff too", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ retryPolicy: { minimumBackoff: 30 * SEC, maximumBackoff: 60 * SEC } });
    publishTexts(broker, topic, ["a"]);
    await pullNow(broker, sub);
    clock.advance(10 * SEC); // lease expires now
    clock.advance(29 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]);
    clock.advance(1 * SEC);
    expect(texts(await pullNow(broker, sub))).toEqual(["a"]);
  });

  test("other messages keep flowing while one is backing off", async () => {
    const { broker, topic, sub } = setupWithSub({ retryPolicy: { minimumBackoff: 60 * SEC, maximumBackoff: 60 * SEC } });
    publishTexts(broker, topic, ["slow"]);
    nack(broker, sub, await pullNow(broker, sub));
    publishTexts(broker, topic, ["fast"]);
    expect(texts(await pullNow(broker, sub))).toEqual(["fast"]);
  });

  test("a waiting pull receives a message when its backoff ends", async () => {
    const { broker, clock } = setup({ pullWaitMs: 60 * SEC });
    const { topic, sub } = topicAndSub(broker, { retryPolicy: { minimumBackoff: 10 * SEC, maximumBackoff: 10 * SEC } });
    publishTexts(broker, topic, ["a"]);
    nack(broker, sub, await pullNow(broker, sub));
    const h = broker.subscriptions.pull(sub, 10);
    clock.advance(10 * SEC);
    expect(texts(await h.result)).toEqual(["a"]);
  });

  test("on an ordered subscription a backing-off key holds its later messages", async () => {
    const { broker, clock } = setup();
    const { topic, sub } = topicAndSub(broker, {
      enableMessageOrdering: true,
      retryPolicy: { minimumBackoff: 10 * SEC, maximumBackoff: 10 * SEC },
    });
    publishTexts(broker, topic, ["1"], "k");
    nack(broker, sub, await pullNow(broker, sub));
    publishTexts(broker, topic, ["2"], "k");
    expect(await pullNow(broker, sub)).toEqual([]);
    clock.advance(10 * SEC);
    expect(texts(await pullNow(broker, sub))).toEqual(["1", "2"]);
  });
});

describe("dead-letter policy", () => {
  test("after max_delivery_attempts nacks the message goes to the dead-letter topic", async () => {
    const { broker } = setup();
    const { dlqSub, topic, sub } = deadLettering(broker);
    broker.topics.publish(topic, [msg("poison", { attributes: { a: "1" } })]);
    const attempts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ds = await pullNow(broker, sub);
      expect(texts(ds)).toEqual(["poison"]);
      attempts.push(ds[0].deliveryAttempt);
      nack(broker, sub, ds);
    }
    expect(attempts).toEqual([1, 2, 3, 4, 5]);
    expect(await pullNow(broker, sub)).toEqual([]);
    const dead = await pullNow(broker, dlqSub);
    expect(texts(dead)).toEqual(["poison"]);
    expect(dead[0].message.attributes.a).toBe("1");
  });

  test("the forwarded copy carries the CloudPubSubDeadLetterSource* attributes", async () => {
    const { broker, clock } = setup();
    const { dlqSub, topic, sub } = deadLettering(broker);
    const published = clock.now();
    const [id] = broker.topics.publish(topic, [msg("poison", { attributes: { a: "1" }, orderingKey: "" })]);
    for (let i = 0; i < 5; i++) {
      clock.advance(SEC);
      nack(broker, sub, await pullNow(broker, sub));
    }
    const [dead] = await pullNow(broker, dlqSub);
    const [project, , subId] = sub.split("/").slice(1);
    expect({ ...dead.message.attributes }).toEqual({
      a: "1",
      CloudPubSubDeadLetterSourceDeliveryCount: "5",
      CloudPubSubDeadLetterSourceSubscription: subId,
      CloudPubSubDeadLetterSourceSubscriptionProject: project,
      CloudPubSubDeadLetterSourceTopicPublishTime: new Date(published).toISOString().replace("Z", "+00:00"),
    });
    expect(dead.message.id).not.toBe(id);
    expect(dead.message.publishTime).toBe(clock.now());
    expect(broker.stats().heldMessages).toBe(1); // the source's copy is freed, the forwarded one held
  });

  test("expiries count toward max_delivery_attempts", async () => {
    const { broker, clock } = setup();
    const { dlqSub, topic, sub } = deadLettering(broker);
    publishTexts(broker, topic, ["slow"]);
    for (let i = 0; i < 5; i++) {
      expect((await pullNow(broker, sub)).length).toBe(1);
      clock.advance(11 * SEC);
    }
    expect(await pullNow(broker, sub)).toEqual([]);
    expect(texts(await pullNow(broker, dlqSub))).toEqual(["slow"]);
  });

  test("a message acked before its last attempt is not dead-lettered", async () => {
    const { broker } = setup();
    const { dlqSub, topic, sub } = deadLettering(broker);
    publishTexts(broker, topic, ["ok"]);
    for (let i = 0; i < 4; i++) nack(broker, sub, await pullNow(broker, sub));
    ack(broker, sub, await pullNow(broker, sub));
    expect(await pullNow(broker, dlqSub)).toEqual([]);
    expect(await pullNow(broker, sub)).toEqual([]);
  });

  test("an ordered key continues after its head is dead-lettered", async () => {
    const { broker } = setup();
    const dlq = makeTopic(broker);
    makeSub(broker, dlq);
    const { topic, sub } = topicAndSub(broker, {
      enableMessageOrdering: true,
      deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 },
    });
    publishTexts(broker, topic, ["bad"], "k");
    for (let i = 0; i < 5; i++) nack(broker, sub, await pullNow(broker, sub));
    publishTexts(broker, topic, ["next"], "k");
    expect(texts(await pullNow(broker, sub))).toEqual(["next"]);
  });
});

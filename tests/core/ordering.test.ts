import { describe, expect, test } from "bun:test";
import { SEC, ack, nack, publishTexts, pullNow, setup, texts, setupWithSub } from "../helpers/core.ts";

const ordered = () => setupWithSub({ enableMessageOrdering: true });

describe("message ordering", () => {
  test("a key's messages come in publish order as one batch", async () => {
    const { broker, topic, sub } = ordered();
    publishTexts(broker, topic, ["1"], "k");
    publishTexts(broker, topic, ["2", "3"], "k");
    expect(texts(await pullNow(broker, sub))).toEqual(["1", "2", "3"]);
  });

  test("a key never has two batches outstanding: the next waits for the ack", async () => {
    const { broker, topic, sub } = ordered();
    publishTexts(broker, topic, ["1"], "k");
    const first = await pullNow(broker, sub);
    publishTexts(broker, topic, ["2"], "k");
    expect(await pullNow(broker, sub)).toEqual([]);
    ack(broker, sub, first);
    expect(texts(await pullNow(broker, sub))).toEqual(["2"]);
  });

  test("a key capped by max_messages does not hand out its rest until the batch is acked", async () => {
    const { broker, topic, sub } = ordered();
    publishTexts(broker, topic, ["1", "2", "3"], "k");
    const first = await pullNow(broker, sub, 2);
    expect(texts(first)).toEqual(["1", "2"]);
    expect(await pullNow(broker, sub, 2)).toEqual([]);
    ack(broker, sub, first);
    expect(texts(await pullNow(broker, sub, 2))).toEqual(["3"]);
  });

  test("different keys are independent", async () => {
    const { broker, topic, sub } = ordered();
    publishTexts(broker, topic, ["a1"], "a");
    await pullNow(broker, sub);
    publishTexts(broker, topic, ["b1"], "b");
    publishTexts(broker, topic, ["a2"], "a");
    expect(texts(await pullNow(broker, sub))).toEqual(["b1"]);
  });

  test("messages without a key are not held back by keyed ones", async () => {
    const { broker, topic, sub } = ordered();
    publishTexts(broker, topic, ["k1"], "k");
    await pullNow(broker, sub);
    publishTexts(broker, topic, ["k2"], "k");
    publishTexts(broker, topic, ["free1", "free2"]);
    expect(texts(await pullNow(broker, sub))).toEqual(["free1", "free2"]);
  });

  test("after a nack, that message and every later one of the key come again in order before newer ones", async () => {
    const { broker, topic, sub } = ordered();
    publishTexts(broker, topic, ["1", "2", "3"], "k");
    const batch = await pullNow(broker, sub);
    expect(texts(batch)).toEqual(["1", "2", "3"]);
    ack(broker, sub, [batch[0]]);
    nack(broker, sub, [batch[1]]);
    publishTexts(broker, topic, ["4"], "k");
    const again = await pullNow(broker, sub);
    expect(texts(again)).toEqual(["2", "3", "4"]);
    expect(again.map((d) => d.deliveryAttempt)).toEqual([2, 2, 1]);
  });

  test("after a nack, the later message's old ack id is stale", async () => {
    const { broker, topic, sub } = ordered();
    publishTexts(broker, topic, ["1", "2"], "k");
    const batch = await pullNow(broker, sub);
    nack(broker, sub, [batch[0]]);
    expect(ack(broker, sub, [batch[1]])).toEqual([batch[1].ackId]);
    expect(texts(await pullNow(broker, sub))).toEqual(["1", "2"]);
  });

  test("after an expiry, the key's messages come again in order before newer ones", async () => {
    const { broker, clock, topic, sub } = ordered();
    publishTexts(broker, topic, ["1", "2"], "k");
    await pullNow(broker, sub);
    publishTexts(broker, topic, ["3"], "k");
    clock.advance(11 * SEC);
    const again = await pullNow(broker, sub);
    expect(texts(again)).toEqual(["1", "2", "3"]);
  });

  test("extending only the first of a batch: the expiry of the second still brings it back, in order", async () => {
    const { broker, clock, topic, sub } = ordered();
    publishTexts(broker, topic, ["1", "2"], "k");
    const batch = await pullNow(broker, sub);
    broker.subscriptions.modifyAckDeadline(sub, [batch[0].ackId], 60);
    clock.advance(11 * SEC);
    ack(broker, sub, [batch[0]]);
    expect(texts(await pullNow(broker, sub))).toEqual(["2"]);
  });

  test("keys on a non-ordered subscription are delivered freely", async () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["1"], "k");
    const first = await pullNow(broker, sub);
    publishTexts(broker, topic, ["2"], "k");
    expect(texts(await pullNow(broker, sub))).toEqual(["2"]);
    nack(broker, sub, first);
    expect(texts(await pullNow(broker, sub))).toEqual(["1"]);
  });
});

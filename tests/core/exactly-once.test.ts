/** Exactly-once delivery: ack id validity, the unary failure with ErrorInfo, stream confirmations. */
import { describe, expect, test } from "bun:test";
import { SEC, ack, caught, nack, openStream, publishTexts, pullNow, setup, texts, setupWithSub, pulledAndRedelivered } from "../helpers/core.ts";

const eod = () => setupWithSub({ enableExactlyOnceDelivery: true });

describe("unary Acknowledge and ModifyAckDeadline", () => {
  test("a valid ack id succeeds", async () => {
    const { broker, topic, sub } = eod();
    publishTexts(broker, topic, ["a"]);
    expect(ack(broker, sub, await pullNow(broker, sub))).toEqual([]);
  });

  test("an ack id used twice fails the second time with EXACTLY_ONCE_ACKID_FAILURE", async () => {
    const { broker, topic, sub } = eod();
    publishTexts(broker, topic, ["a"]);
    const ds = await pullNow(broker, sub);
    ack(broker, sub, ds);
    const e = caught(() => ack(broker, sub, ds));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.details).toEqual([
      {
        kind: "ErrorInfo",
        reason: "EXACTLY_ONCE_ACKID_FAILURE",
        domain: "pubsub.googleapis.com",
        metadata: [[ds[0].ackId, "PERMANENT_FAILURE_INVALID_ACK_ID"]],
      },
    ]);
  });

  test("an expired lease's ack id is invalid, and the valid ids of the same request are still acked", async () => {
    const f = eod();
    const { broker, clock, sub } = f;
    const [stale, fresh] = await pulledAndRedelivered(f);
    const e = caught(() => broker.subscriptions.acknowledge(sub, [fresh[0].ackId, stale[0].ackId]));
    expect(e.details[0]).toMatchObject({ metadata: [[stale[0].ackId, "PERMANENT_FAILURE_INVALID_ACK_ID"]] });
    clock.advance(60 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]); // the fresh id was acked
  });

  test("a nack with a stale ack id fails; a modack with a valid one extends", async () => {
    const { broker, clock, topic, sub } = eod();
    publishTexts(broker, topic, ["a"]);
    const first = await pullNow(broker, sub);
    nack(broker, sub, first);
    expect(caught(() => nack(broker, sub, first)).details[0]).toMatchObject({ reason: "EXACTLY_ONCE_ACKID_FAILURE" });
    const second = await pullNow(broker, sub);
    expect(broker.subscriptions.modifyAckDeadline(sub, [second[0].ackId], 60)).toEqual([]);
    clock.advance(30 * SEC);
    expect(await pullNow(broker, sub)).toEqual([]); // no redelivery while the lease is valid
  });

  test("the ErrorInfo metadata stays within what a gRPC trailer can carry", () => {
    const { broker, sub } = eod();
    const ids = Array.from({ length: 2500 }, (_, i) => `stale-ack-id-${i}`);
    const e = caught(() => broker.subscriptions.acknowledge(sub, ids));
    const meta = (e.details[0] as unknown as { metadata: [string, string][] }).metadata;
    expect(meta.length).toBeGreaterThan(50);
    expect(meta.length).toBeLessThan(ids.length);
  });

  test("without exactly-once delivery a stale ack id is silently ignored", async () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    const ds = await pullNow(broker, sub);
    ack(broker, sub, ds);
    expect(ack(broker, sub, ds)).toEqual([ds[0].ackId]);
  });
});

describe("StreamingPull confirmations", () => {
  test("acks and modacks on the stream are answered with confirmations listing valid and invalid ids", () => {
    const { broker, topic, sub } = eod();
    publishTexts(broker, topic, ["a", "b"]);
    const { sink, session } = openStream(broker, sub);
    const [a, b] = sink.deliveries;
    session.handle({ ackIds: [a.ackId, "bogus"], modifyDeadlineAckIds: [b.ackId, "nope"], modifyDeadlineSeconds: [30, 30] });
    expect(sink.confirmations).toHaveLength(1);
    const [c] = sink.confirmations;
    expect(c.ackConfirmation).toEqual({ ackIds: [a.ackId], invalidAckIds: ["bogus"] });
    expect(c.modackConfirmation).toEqual({ ackIds: [b.ackId], invalidAckIds: ["nope"] });
    expect(c.deliveries).toEqual([]);
    expect(c.properties).toEqual({ exactlyOnce: true, ordering: false });
  });

  test("no confirmations without exactly-once delivery", () => {
    const { broker, topic, sub } = setupWithSub();
    publishTexts(broker, topic, ["a"]);
    const { sink, session } = openStream(broker, sub);
    session.handle({ ackIds: [sink.deliveries[0].ackId] });
    expect(sink.confirmations).toEqual([]);
    expect(texts(sink.deliveries)).toEqual(["a"]);
  });
});

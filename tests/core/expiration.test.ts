/** Expiration policy on the manual clock: inactive subscriptions are deleted after their ttl. */
import { describe, expect, test } from "bun:test";
import { PROJECT, SEC, ack, openStream, publishTexts, pullNow, setup, setupWithSub } from "../helpers/core.ts";

const DAY = 24 * 3600 * SEC;
const gone = (broker: ReturnType<typeof setup>["broker"], sub: string) =>
  broker.subscriptions.list(`projects/${PROJECT}`).items.every((s) => s.name !== sub);

/** Still there one second before `ms` from now, deleted at `ms`. */
function expectGoneAfter(broker: ReturnType<typeof setup>["broker"], clock: ReturnType<typeof setup>["clock"], sub: string, ms: number) {
  clock.advance(ms - SEC);
  expect(gone(broker, sub)).toBe(false);
  clock.advance(SEC);
  expect(gone(broker, sub)).toBe(true);
}

/** A 1-day ttl (the minimum) needs retention no longer than it. */
const ONE_DAY = { expirationPolicy: { ttl: DAY }, messageRetentionDuration: 600 * SEC };

describe("expiration_policy", () => {
  test("a subscription with no activity for its ttl is deleted, not before", () => {
    const { broker, clock, sub } = setupWithSub(ONE_DAY);
    expectGoneAfter(broker, clock, sub, DAY);
  });

  test("the default ttl is 31 days", () => {
    const { broker, clock, sub } = setupWithSub();
    expectGoneAfter(broker, clock, sub, 31 * DAY);
  });

  test("pulls and acks postpone it", async () => {
    const { broker, clock, topic, sub } = setupWithSub(ONE_DAY);
    clock.advance(DAY / 2);
    publishTexts(broker, topic, ["a"]);
    const ds = await pullNow(broker, sub);
    clock.advance(DAY / 2);
    ack(broker, sub, ds);
    expectGoneAfter(broker, clock, sub, DAY);
  });

  test("an open stream keeps it alive; the ttl counts from when the stream closes", () => {
    const { broker, clock, sub } = setupWithSub(ONE_DAY);
    const { session } = openStream(broker, sub);
    clock.advance(3 * DAY);
    expect(gone(broker, sub)).toBe(false);
    session.close();
    expectGoneAfter(broker, clock, sub, DAY);
  });

  test("an empty policy never expires; UpdateSubscription re-arms with a new ttl at once", () => {
    const { broker, clock, sub } = setupWithSub({ expirationPolicy: {} });
    clock.advance(400 * DAY);
    expect(gone(broker, sub)).toBe(false);
    broker.subscriptions.update({ name: sub, ...ONE_DAY } as never, ["expiration_policy", "message_retention_duration"]);
    clock.advance(DAY);
    expect(gone(broker, sub)).toBe(true);
  });

  test("expiry frees what the subscription held", () => {
    const { broker, clock, topic } = setupWithSub(ONE_DAY);
    clock.advance(DAY - SEC);
    publishTexts(broker, topic, ["a"]);
    expect(broker.stats().heldMessages).toBe(1);
    clock.advance(SEC);
    expect(broker.stats()).toMatchObject({ subscriptions: 0, heldMessages: 0 });
  });
});

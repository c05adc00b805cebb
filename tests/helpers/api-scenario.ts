/**
 * One walk through the test API's methods with the official client beside it, written once and
 * run on both sides of the API (in process under Bun, a child process through lib/index.cjs), so
 * the two are shown to answer alike.
 */
import { expect } from "bun:test";
import { PubSub } from "@google-cloud/pubsub";
import type { Emulator } from "../../lib/index.d.ts";
import { PROJECT, unique } from "./emulator.ts";
import { rawClients, subPath, topicPath } from "./raw-clients.ts";

/** Needs an emulator started with `clock: "manual"`; returns what it saw, without ports and times. */
export async function walkThrough(emu: Emulator) {
  const client = new PubSub({ projectId: PROJECT, apiEndpoint: emu.host, emulatorMode: true });
  const raw = rawClients(emu);
  try {
    const [t, s] = [unique("t"), unique("s")];
    const [topic] = await client.createTopic(t);
    await topic.createSubscription(s, { ackDeadlineSeconds: 10 });
    const id = await topic.publishMessage({ data: Buffer.from("hello") });

    const waiting = await emu.messages(subPath(s));
    expect(waiting.waiting).toBe(1);
    expect(waiting.messages[0].messageId).toBe(id);
    expect(Buffer.from(waiting.messages[0].data, "base64").toString()).toBe("hello");

    const [pulled] = await raw.subscriber.pull({ subscription: subPath(s), maxMessages: 10 });
    expect(pulled.receivedMessages?.map((m) => m.message?.messageId)).toEqual([id]);
    const leased = await emu.leases(subPath(s));
    expect(leased.outstanding).toBe(1);
    expect(leased.leases[0].messageId).toBe(id);
    expect(leased.leases[0].secondsLeft).toBe(10);

    // The lease runs out on the test clock alone: 11 s later the message waits again.
    const before = await emu.clock();
    expect(before.mode).toBe("manual");
    const moved = await emu.advanceClock("11s");
    expect(moved.timeMs - before.timeMs).toBe(11_000);
    expect(moved.firedTimers).toBeGreaterThanOrEqual(1);
    expect((await emu.leases(subPath(s))).outstanding).toBe(0);
    const again = await emu.messages(subPath(s));
    expect(again.messages.map((m) => [m.messageId, m.deliveryAttempts])).toEqual([[id, 1]]);

    const setTo = await emu.setClockTime(new Date(moved.timeMs + 60_000));
    expect(setTo.timeMs).toBe(moved.timeMs + 60_000);

    const sub = await emu.subscription(subPath(s));
    expect(sub.topic).toBe(topicPath(t));
    expect(sub.ackDeadlineSeconds).toBe(10);
    expect((await emu.topic(topicPath(t))).subscriptions).toEqual([subPath(s)]);

    const errors = await Promise.all([
      emu.subscription(subPath("missing-sub")).catch((e) => [e.name, e.code]),
      emu.topic("topics/no-project").catch((e) => [e.name, e.code]),
      emu.advanceClock("soon").catch((e) => [e.name, e.code]),
      emu.setClockMode("sideways" as "manual").catch((e) => [e.name, e.code]),
      emu.leases(subPath(s), 1.5).catch((e) => [e.name, e.code]),
      emu.message(id).catch((e) => [e.name, e.code]),
    ]);

    const reset = await emu.reset(PROJECT);
    expect(reset.topics).toBeGreaterThanOrEqual(1);
    expect((await topic.exists())[0]).toBe(false);
    return { errors, reset: { ...reset, topics: reset.topics > 0, subscriptions: reset.subscriptions > 0 }, subKeys: Object.keys(sub).sort() };
  } finally {
    await raw.close();
    await client.close();
  }
}

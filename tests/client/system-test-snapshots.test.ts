/**
 * The Snapshot section of the official Node client's system tests (nodejs-pubsub
 * system-test/suite.ps.ts), replayed step for step, on default flags. Their seek tests ignore a
 * message that arrives before `publishMessage` resolves (the client then keeps it leased for up to
 * an hour), so they pass only because delivery is causal (src/core/topic/causal-wake.ts).
 */
import { expect, test } from "bun:test";
import type { Message, Snapshot, Subscription, Topic } from "@google-cloud/pubsub";
import { unique } from "../helpers/emulator.ts";
import { clientSuite } from "../helpers/client-suite.ts";

const suite = clientSuite();

async function snapshotPop() {
  const [topic] = await suite.ps.createTopic(unique("top-snap"));
  const subscription: Subscription = suite.ps.topic(topic.name).subscription(unique("sub-snap"));
  await subscription.create();
  const snapshotId = unique("ss-snap");
  const snapshot: Snapshot = subscription.snapshot(snapshotId);
  await snapshot.create();
  return { topic: topic as Topic, subscription, snapshotId, snapshot };
}

/** Resolves when `work` calls resolve; rejects on a subscription error. */
function onMessages(sub: Subscription, work: (m: Message, resolve: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    sub.on("error", reject);
    sub.on("message", (m: Message) => work(m, resolve));
  });
}

test("lists snapshots, also as a stream", async () => {
  const pop = await snapshotPop();
  const [snapshots] = await suite.ps.getSnapshots();
  expect(snapshots.map((s) => s.name.split("/").pop())).toContain(pop.snapshotId);
  const streamed = await new Promise<Snapshot[]>((res, rej) => {
    const out: Snapshot[] = [];
    suite.ps.getSnapshotsStream().on("error", rej).on("data", (s: Snapshot) => out.push(s)).on("end", () => res(out));
  });
  expect(streamed.map((s) => s.name.split("/").pop())).toContain(pop.snapshotId);
}, 15_000);

for (const target of ["snapshot", "date"] as const) {
  test(`seeks to a ${target}: the acked message comes again`, async () => {
    const pop = await snapshotPop();
    let count = 0;
    let messageId = "";
    const done = onMessages(pop.subscription, async (m, resolve) => {
      if (m.id !== messageId) return;
      m.ack();
      if (++count === 1) {
        if (target === "snapshot") await pop.snapshot.seek();
        else pop.subscription.seek(m.publishTime, () => {});
        return;
      }
      await pop.subscription.close();
      resolve();
    });
    messageId = await pop.topic.publishMessage({ data: Buffer.from("Hello, world!") });
    await done;
    expect(count).toBe(2);
  }, 15_000);
}

test("seeks to a future date (purge)", async () => {
  const pop = await snapshotPop();
  await pop.topic.publishMessage({ data: Buffer.from("Hello, world!") });
  await pop.subscription.seek(new Date("3000-01-01"));
  await pop.topic.publishMessage({ data: Buffer.from("Oh no!") });
  const got: string[] = [];
  await onMessages(pop.subscription, async (m, resolve) => {
    got.push(m.data.toString());
    m.ack();
    await pop.subscription.close();
    resolve();
  });
  expect(got).toEqual(["Oh no!"]);
}, 15_000);

/**
 * An ordered Cloud Storage subscription: a key's messages reach the writer one delivery at a time
 * (the next once the last is acked, that is once its object is written), so they spread over
 * objects closed by max_duration, and read back in publish order across them.
 */
import { beforeAll, expect, test } from "bun:test";
import { unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { storageEmulator } from "./storage-helpers.ts";

const env = storageEmulator();
const gcs = env.gcs;
let emu: TestEmulator;
beforeAll(() => {
  emu = env.emu;
});

test("one ordering key's messages land in publish order across the objects", async () => {
  const bucket = unique("b").toLowerCase();
  gcs.createBucket(bucket);
  const pubsub = emu.client();
  const [created] = await pubsub.createTopic(unique("t"));
  const [sub] = await created.createSubscription(unique("s"), { enableMessageOrdering: true, cloudStorageConfig: { bucket, maxMessages: 1000 } });
  const topic = pubsub.topic(created.name, { messageOrdering: true });
  const sent = Array.from({ length: 1500 }, (_, i) => `k${i}`);
  await Promise.all(sent.map((s) => topic.publishMessage({ data: Buffer.from(s), orderingKey: "one-key" })));
  for (let i = 0; i < 10 && emu.broker.subscriptions.exportStatus(sub.name)?.rows !== sent.length; i++) {
    await waitFor(() => (emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages ?? 0) > 0 || emu.broker.subscriptions.exportStatus(sub.name)?.rows === sent.length, 5000, "a batch filling");
    await emu.advance("300s");
    const before = emu.broker.subscriptions.exportStatus(sub.name)?.objects ?? 0;
    await waitFor(() => (emu.broker.subscriptions.exportStatus(sub.name)?.objects ?? 0) > before || emu.broker.subscriptions.exportStatus(sub.name)?.rows === sent.length, 5000, "an object");
  }
  // Each object holds a run of the key in publish order, and the runs follow one another (objects
  // opened in the same second of the manual clock share their time, so their names do not order them).
  const runs = gcs.objects(bucket).map((n) => gcs.read(bucket, n).toString().split("\n"));
  expect(runs.length).toBeGreaterThan(1);
  runs.sort((a, b) => Number(a[0].slice(1)) - Number(b[0].slice(1)));
  expect(runs.flat()).toEqual(sent);
}, 30_000);

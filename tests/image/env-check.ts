/**
 * What an application's test does in docs/container.md's CI examples: the official client configured by
 * the environment alone (PUBSUB_EMULATOR_HOST, PUBSUB_PROJECT_ID; no endpoint in code) finds the
 * provisioned topic and subscription and makes a publish → pull → ack round trip. Exits non-zero
 * on any problem, within 30 s.
 *
 *   PUBSUB_EMULATOR_HOST=localhost:8085 PUBSUB_PROJECT_ID=my-project bun tests/image/env-check.ts TOPIC SUBSCRIPTION
 */
import { PubSub } from "@google-cloud/pubsub";

process.env.METADATA_SERVER_DETECTION ??= "none";
const [topicId, subId] = process.argv.slice(2);
const fail = (why: string): never => {
  console.error(`env-check (${process.env.PUBSUB_EMULATOR_HOST}, ${process.env.PUBSUB_PROJECT_ID}): ${why}`);
  process.exit(1);
};
if (!topicId || !subId || !process.env.PUBSUB_EMULATOR_HOST || !process.env.PUBSUB_PROJECT_ID) fail("usage: PUBSUB_EMULATOR_HOST=… PUBSUB_PROJECT_ID=… bun tests/image/env-check.ts TOPIC SUBSCRIPTION");
setTimeout(() => fail("did not finish within 30 s"), 30_000).unref();

const pubsub = new PubSub();
const [topicExists] = await pubsub.topic(topicId!).exists();
if (!topicExists) fail(`topic ${topicId} was not provisioned`);
const sub = pubsub.subscription(subId!);
const [subExists] = await sub.exists();
if (!subExists) fail(`subscription ${subId} was not provisioned`);
const id = await pubsub.topic(topicId!).publishMessage({ data: Buffer.from("from the CI example") });
const got = await new Promise<string>((resolve, reject) => {
  sub.on("message", (m) => (m.ack(), resolve(m.id)));
  sub.on("error", reject);
});
await sub.close();
await pubsub.close();
if (got !== id) fail(`received ${got}, published ${id}`);
console.log(`env-check: ${topicId} → ${subId} round trip through PUBSUB_EMULATOR_HOST=${process.env.PUBSUB_EMULATOR_HOST}`);
process.exit(0);

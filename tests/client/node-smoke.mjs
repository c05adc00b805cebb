// Plain-Node smoke test of the official client against an emulator (no Bun APIs).
// Usage: PUBSUB_EMULATOR_HOST=host:port node tests/client/node-smoke.mjs
// Creates a topic and subscription, publishes 100 messages with attributes, receives them all on a
// streaming pull, acks them, and exits 0; exits 1 with a message on any failure or after 30 s.
import { PubSub } from "@google-cloud/pubsub";

const N = 100;
const fail = (msg) => {
  console.error(`node-smoke: FAIL: ${msg}`);
  process.exit(1);
};
const hardTimeout = setTimeout(() => fail("timed out after 30 s"), 30_000);
process.on("unhandledRejection", (e) => fail(`unhandled rejection: ${e?.stack ?? e}`));

async function main() {
  if (!process.env.PUBSUB_EMULATOR_HOST) fail("PUBSUB_EMULATOR_HOST is not set");
  const pubsub = new PubSub({ projectId: process.env.PUBSUB_PROJECT_ID || "node-smoke" });
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const [topic] = await pubsub.createTopic(`node-smoke-t-${suffix}`);
  const [sub] = await topic.createSubscription(`node-smoke-s-${suffix}`);

  const ids = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      topic.publishMessage({ data: Buffer.from(`msg-${i}`), attributes: { index: String(i), runtime: "node" } }),
    ),
  );
  if (new Set(ids).size !== N) fail(`expected ${N} distinct message ids, got ${new Set(ids).size}`);

  const seen = new Map();
  await new Promise((resolve, reject) => {
    sub.on("error", reject);
    sub.on("message", (m) => {
      const i = Number(m.attributes.index);
      if (m.data.toString() !== `msg-${i}`) return reject(new Error(`message ${m.id}: data ${m.data} does not match index ${i}`));
      if (m.attributes.runtime !== "node") return reject(new Error(`message ${m.id}: attribute runtime=${m.attributes.runtime}`));
      if (ids[i] !== m.id) return reject(new Error(`message ${i}: id ${m.id}, publish returned ${ids[i]}`));
      seen.set(m.id, (seen.get(m.id) ?? 0) + 1);
      m.ack();
      if (seen.size === N) resolve();
    });
  });
  await sub.close();
  await sub.delete();
  await topic.delete();
  await pubsub.close();
  const dups = [...seen.values()].filter((c) => c > 1).length;
  if (dups) fail(`${dups} messages were delivered more than once`);
  clearTimeout(hardTimeout);
  console.log(`node-smoke: OK ${N} messages on Node ${process.version}`);
  process.exit(0);
}

main().catch((e) => fail(e?.stack ?? String(e)));

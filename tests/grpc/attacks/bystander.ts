/**
 * The well-behaved client of the attack tests, in its own process so the attacker's work does not
 * delay it: publishes one message, pulls and acks, again and again (each call bounded), and prints
 * one line per round trip: `ok START_MS LATENCY_MS` or `err START_MS MESSAGE`. Runs until killed,
 * at most 10,000 round trips. Usage: bun bystander.ts PORT TOPIC SUBSCRIPTION
 */
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";

process.env.METADATA_SERVER_DETECTION ??= "none";
const [port, topic, subscription] = process.argv.slice(2) as [string, string, string];
const opts = { apiEndpoint: "127.0.0.1", servicePath: "127.0.0.1", port: Number(port), sslCreds: grpc.credentials.createInsecure(), projectId: "test-project" };
const publisher = new v1.PublisherClient(opts);
const subscriber = new v1.SubscriberClient(opts);

for (let i = 0; i < 10_000; i++) {
  const start = Date.now();
  const t0 = performance.now();
  try {
    await publisher.publish({ topic, messages: [{ data: Buffer.from(`b${i}`) }] }, { timeout: 10_000 });
    const [res] = await subscriber.pull({ subscription, maxMessages: 10 }, { timeout: 10_000 });
    const ackIds = (res.receivedMessages ?? []).map((m) => m.ackId!);
    if (ackIds.length) await subscriber.acknowledge({ subscription, ackIds }, { timeout: 10_000 });
    process.stdout.write(`ok ${start} ${(performance.now() - t0).toFixed(2)}\n`);
  } catch (e) {
    process.stdout.write(`err ${start} ${String((e as Error).message).replace(/\s+/g, " ").slice(0, 200)}\n`);
  }
  await Bun.sleep(10);
}

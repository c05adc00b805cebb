/**
 * Causal delivery through the official client: a message reaches a subscriber only after its
 * Publish was answered, as on the real service, so `id = await publish()` then "wait for the
 * message whose id is id" works on default flags. The server runs as its own process, as users
 * run it: in-process, a pause of the shared event loop (a collection) would fire its timer and
 * hand the client both answers in one turn, which no separate server does.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Message, PubSub, Subscription, Topic } from "@google-cloud/pubsub";
import { unique, waitFor } from "../helpers/emulator.ts";
import { openStream, rawClients, sleep, within, type RawClients } from "../helpers/raw-clients.ts";
import { clientFor, spawnServer, type ServerProcess } from "../helpers/server-process.ts";
import { loadConfig } from "../../src/runtime/config.ts";

let server: ServerProcess;
let ps: PubSub;
let raw: RawClients;
beforeAll(async () => {
  server = await spawnServer([]);
  ps = clientFor(server.port);
  raw = rawClients(server);
});
afterAll(async () => {
  await raw.close();
  await ps.close();
  await server.stop();
});

async function topicAndSub(): Promise<{ topic: Topic; sub: Subscription }> {
  const [topic] = await ps.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"));
  return { topic, sub };
}

test("raw stream: every message arrives after its Publish resolved", async () => {
  const { topic, sub } = await topicAndSub();
  const stream = openStream(raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 60 });
  await sleep(100); // the stream is open before the first publish
  const answered = new Set<string>();
  const early: string[] = [];
  let seen = 0;
  const check = setInterval(() => {
    for (; seen < stream.received.length; seen++) {
      const id = stream.received[seen].messageId;
      if (!answered.has(id)) early.push(id);
    }
  }, 0);
  try {
    for (let i = 0; i < 30; i++) {
      const [res] = await raw.publisher.publish({ topic: topic.name, messages: [{ data: Buffer.from(String(i)) }] });
      // Runs in the publish's own continuation: a message already on the stream arrived first.
      for (; seen < stream.received.length; seen++) {
        const id = stream.received[seen].messageId;
        if (!answered.has(id)) early.push(id);
      }
      answered.add(res.messageIds![0]);
    }
    await waitFor(() => stream.received.length >= 30, 10_000, "30 messages on the stream");
  } finally {
    clearInterval(check);
    stream.cancel();
  }
  expect(early).toEqual([]);
}, 20_000);

test("high-level client: wait for the message whose id publishMessage returned", async () => {
  const { topic, sub } = await topicAndSub();
  let wanted = "";
  const ignored: string[] = [];
  const got: string[] = [];
  sub.on("message", (m: Message) => {
    if (m.id === wanted) got.push(m.id);
    else ignored.push(m.id);
    m.ack();
  });
  try {
    await sleep(200);
    for (let i = 0; i < 10; i++) {
      wanted = await topic.publishMessage({ data: Buffer.from(`m${i}`) });
      await within(waitFor(() => got.length === i + 1 || ignored.length > 0, 3000, `message ${i}`), 4000);
      if (ignored.length) break;
    }
  } finally {
    await sub.close();
  }
  expect(ignored).toEqual([]);
  expect(got.length).toBe(10);
}, 20_000);

test("--causal-delay-ms: a number of ms, or off", () => {
  expect(loadConfig(["--causal-delay-ms", "off"], {}).causalDelayMs).toBe(-1);
  expect(loadConfig(["--causal-delay-ms=5"], {}).causalDelayMs).toBe(5);
  expect(() => loadConfig(["--causal-delay-ms", "-3"], {})).toThrow(/--causal-delay-ms/);
});

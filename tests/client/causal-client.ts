/**
 * The two publish-then-receive checks of causal.test.ts, run as a process of their own against the
 * server on the port given: a fresh client, as users run one, with no test runner's heap to
 * collect mid-check. Prints one JSON line: the messages that reached a subscriber before their
 * Publish resolved (raw stream), and those the high-level pattern ignored.
 */
import type { Message } from "@google-cloud/pubsub";
import { unique } from "../helpers/project.ts";
import { waitFor } from "../helpers/wait.ts";
import { openStream, rawClients, sleep } from "../helpers/raw-clients.ts";
import { clientFor } from "../helpers/server-process.ts";

const port = Number(process.argv[2]);
const ps = clientFor(port);
const raw = rawClients({ port });

async function topicAndSub() {
  const [topic] = await ps.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"));
  return { topic, sub };
}

/** 30 publishes, each watched on a raw stream: ids seen on the stream before their answer. */
async function rawStream(): Promise<{ early: string[]; received: number }> {
  const { topic, sub } = await topicAndSub();
  const stream = openStream(raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 60 });
  await sleep(100); // the stream is open before the first publish
  const answered = new Set<string>();
  const early: string[] = [];
  let seen = 0;
  const look = () => {
    for (; seen < stream.received.length; seen++) {
      const id = stream.received[seen].messageId;
      if (!answered.has(id)) early.push(id);
    }
  };
  const check = setInterval(look, 0);
  try {
    for (let i = 0; i < 30; i++) {
      const [res] = await raw.publisher.publish({ topic: topic.name, messages: [{ data: Buffer.from(String(i)) }] });
      look(); // in the publish's own continuation: a message already on the stream arrived first
      answered.add(res.messageIds![0]);
    }
    await waitFor(() => stream.received.length >= 30, 10_000, "30 messages on the stream");
  } finally {
    clearInterval(check);
    stream.cancel();
  }
  return { early, received: stream.received.length };
}

/** `id = await publishMessage()`, then wait for the message whose id is id, 10 times. */
async function highLevel(): Promise<{ ignored: string[]; got: number }> {
  const { topic, sub } = await topicAndSub();
  let wanted = "";
  const ignored: string[] = [];
  let got = 0;
  sub.on("message", (m: Message) => {
    if (m.id === wanted) got++;
    else ignored.push(m.id);
    m.ack();
  });
  try {
    await sleep(200);
    for (let i = 0; i < 10 && ignored.length === 0; i++) {
      wanted = await topic.publishMessage({ data: Buffer.from(`m${i}`) });
      await waitFor(() => got === i + 1 || ignored.length > 0, 3000, `message ${i}`);
    }
  } finally {
    await sub.close();
  }
  return { ignored, got };
}

try {
  const r = await rawStream();
  const h = await highLevel();
  console.log(JSON.stringify({ raw: r, highLevel: h }));
} finally {
  await raw.close();
  await ps.close();
}

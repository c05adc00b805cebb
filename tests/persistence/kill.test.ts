/**
 * The durability promise through the official client against a real server process on a data
 * dir: ids Publish returned survive a kill -9, and so do acks that returned; a clean stop and a
 * restart keep the topology. Then kills at random moments under publish and ack load.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { unique } from "../helpers/emulator.ts";
import { rawClients, sleep, subPath, topicPath } from "../helpers/raw-clients.ts";
import { receive } from "../helpers/receive.ts";
import { clientFor, spawnServer, type ServerProcess } from "../helpers/server-process.ts";
import { waitFor } from "../helpers/wait.ts";
import { cleanupDataDirs, tempDataDir } from "../helpers/stores.ts";

const running: ServerProcess[] = [];
const start = async (dir: string, port = 0) => {
  const s = await spawnServer(["--data-dir", dir, "--pull-wait-ms", "200"], { port });
  running.push(s);
  return s;
};

afterAll(async () => {
  await Promise.all(running.map((s) => s.kill9()));
  cleanupDataDirs();
});

describe("kill -9", () => {
  test("every id Publish returned is delivered after the restart; acks that returned stay acked", async () => {
    const dir = tempDataDir();
    const first = await start(dir);
    const ps = clientFor(first.port);
    const [topic] = await ps.createTopic(unique("t"));
    const [sub] = await topic.createSubscription(unique("s"));
    const ids = await Promise.all(Array.from({ length: 2000 }, (_, i) => topic.publishMessage({ data: Buffer.from(`m${i}`), attributes: { i: String(i) } })));
    expect(new Set(ids).size).toBe(2000);

    const raw = rawClients(first);
    const [pulled] = await raw.subscriber.pull({ subscription: sub.name, maxMessages: 500 });
    const acked = pulled.receivedMessages!.slice(0, 300);
    await raw.subscriber.acknowledge({ subscription: sub.name, ackIds: acked.map((r) => r.ackId!) });
    const ackedIds = new Set(acked.map((r) => r.message!.messageId!));
    await first.kill9();
    await Promise.all([raw.close(), ps.close()]);

    const second = await start(dir);
    const ps2 = clientFor(second.port);
    const expected = ids.filter((id) => !ackedIds.has(id));
    const got = await receive(ps2.subscription(sub.name), expected.length, { ms: 20_000 });
    expect(got.map((m) => m.id).sort()).toEqual(expected.sort());
    for (const m of got) expect(m.data.toString()).toBe(`m${m.attributes.i}`);
    const raw2 = rawClients(second);
    const [rest] = await raw2.subscriber.pull({ subscription: sub.name, maxMessages: 1000, returnImmediately: true });
    expect(rest.receivedMessages ?? []).toEqual([]);
    await Promise.all([raw2.close(), ps2.close()]);
    await second.kill9();
  }, 60_000);

  test("a clean stop (SIGTERM) exits 0 and the restart serves the same topics and subscriptions", async () => {
    const dir = tempDataDir();
    const first = await start(dir);
    const ps = clientFor(first.port);
    const [dlq] = await ps.createTopic(unique("dlq"));
    const [topic] = await ps.createTopic({ name: unique("t"), labels: { env: "ci" } });
    const [sub] = await topic.createSubscription(unique("s"), {
      enableMessageOrdering: true,
      ackDeadlineSeconds: 42,
      deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 7 },
    });
    const [meta] = await sub.getMetadata();
    await ps.close();
    expect(await first.stop()).toBe(0);

    const second = await start(dir);
    const ps2 = clientFor(second.port);
    const [topics] = await ps2.getTopics();
    expect(topics.map((t) => t.name).sort()).toEqual([dlq.name, topic.name].sort());
    expect((await ps2.topic(topic.name).getMetadata())[0].labels).toEqual({ env: "ci" });
    expect((await ps2.subscription(sub.name).getMetadata())[0]).toEqual(meta);
    await ps2.close();
    await second.kill9();
  }, 60_000);
});

/**
 * Publishers and one pull-and-ack consumer run while the server is killed at a random moment and
 * restarted on the same port (the clients retry into the new process, as after a container
 * restart). Afterwards everything left is drained. Every id any Publish returned must have been
 * acked or be delivered in the drain, unless an ack for it was at least sent; no message whose
 * ack returned before a kill may be delivered after that kill.
 */
describe("kill -9 at random moments under load", () => {
  test("three rounds: nothing returned is lost, nothing acked comes back", async () => {
    const dir = tempDataDir();
    let server = await start(dir);
    const port = server.port;
    const ps = clientFor(port);
    const raw = rawClients(server);
    const topicName = topicPath(unique("t"));
    const subName = subPath(unique("s"));
    await ps.createTopic(topicName);
    await ps.topic(topicName).createSubscription(subName);
    const topic = ps.topic(topicName, { batching: { maxMessages: 50, maxMilliseconds: 5 } });

    const published = new Set<string>();
    const ackSent = new Set<string>();
    /** id → when its ack returned (ms, performance.now()). */
    const ackedAt = new Map<string, number>();
    const killedAt: number[] = [];
    const violations: string[] = [];
    let running = true;
    let consuming = true;
    let seq = 0;

    const publishLoop = async () => {
      while (running) {
        const batch = Array.from({ length: 20 }, () => topic.publishMessage({ data: Buffer.from(String(seq++)) }).then(
          (id) => void published.add(id),
          () => {},
        ));
        await Promise.all(batch);
      }
    };
    const noteDelivery = (id: string) => {
      const at = ackedAt.get(id);
      if (at !== undefined && killedAt.some((k) => k > at)) violations.push(`${id} acked before a kill and delivered again`);
    };
    const consumeLoop = async () => {
      while (consuming) {
        try {
          // Slower than the publishers, so a backlog is waiting at each kill.
          await sleep(20);
          const [res] = await raw.subscriber.pull({ subscription: subName, maxMessages: 50 }, { timeout: 3000 });
          const kills = killedAt.length;
          const got = res.receivedMessages ?? [];
          if (!got.length) continue;
          for (const r of got) noteDelivery(r.message!.messageId!);
          for (const r of got) ackSent.add(r.message!.messageId!);
          await raw.subscriber.acknowledge({ subscription: subName, ackIds: got.map((r) => r.ackId!) }, { timeout: 3000 });
          // An ack counts as returned only when no kill came between the pull and its answer: a
          // retry into the next process carries ack ids it never handed out, which it ignores.
          if (killedAt.length !== kills) continue;
          const now = performance.now();
          for (const r of got) if (!ackedAt.has(r.message!.messageId!)) ackedAt.set(r.message!.messageId!, now);
        } catch {
          await sleep(20);
        }
      }
    };

    const loops = [publishLoop(), publishLoop(), consumeLoop()];
    for (let round = 0; round < 3; round++) {
      await sleep(400 + Math.random() * 1200);
      killedAt.push(performance.now());
      await server.kill9();
      server = await start(dir, port);
    }
    await sleep(500);
    // The publishers go on alone until a backlog is waiting, so the drain below always has one to
    // check: after the last restart the client's reconnect backoff (seconds by the third kill) can
    // hold publishing back while the consumer catches up.
    consuming = false;
    const before = published.size;
    await waitFor(() => published.size - before >= 300, 20_000, () => `a backlog (${published.size - before} published since the consumer stopped)`);
    running = false;
    // A publish retried across the last restart can take seconds to settle; one that settled
    // after the drain would count as lost, so the drain waits for them (bounded).
    const settled = await Promise.race([Promise.all(loops).then(() => true), sleep(30_000).then(() => false)]);

    // Drain what is left.
    const left = new Set<string>();
    for (let empty = 0; empty < 3; ) {
      const [res] = await raw.subscriber.pull({ subscription: subName, maxMessages: 1000 }, { timeout: 5000 });
      const got = res.receivedMessages ?? [];
      if (!got.length) {
        empty++;
        continue;
      }
      for (const r of got) {
        noteDelivery(r.message!.messageId!);
        left.add(r.message!.messageId!);
      }
      await raw.subscriber.acknowledge({ subscription: subName, ackIds: got.map((r) => r.ackId!) });
    }
    const lost = [...published].filter((id) => !ackSent.has(id) && !left.has(id));
    const counts = { published: published.size, acked: ackedAt.size, drained: left.size };
    expect({ ...counts, settled, lostCount: lost.length, lost: lost.slice(0, 20), violations: violations.slice(0, 20) }).toMatchObject({ settled: true, lostCount: 0, lost: [], violations: [] });
    // Enough happened for the checks above to mean something (the counts shown when not).
    expect(Math.min(counts.published, counts.acked * 5, counts.drained * 2) > 400 ? "enough" : `not enough: ${JSON.stringify(counts)}`).toBe("enough");
    await Promise.all([raw.close(), ps.close()]);
    await server.kill9();
  }, 90_000);
});

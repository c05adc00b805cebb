/**
 * Attacks through flow control and stream ids: a client that never opens its window (a
 * StreamingPull behind a zero window), one that does not read its socket (slow read of a large
 * response), windows pushed past 2^31−1, and the stream ids used up. None of these is answered by
 * closing a client that keeps the protocol; each is bounded in what the server holds, and no
 * message is kept from the other clients.
 */
import { expect, test } from "bun:test";
import { PROJECT, unique } from "../../helpers/emulator.ts";
import { Peer, STREAMING_PULL, T, frame, goawayCode, requestBlock, settings, streamingPullRequest, u32 } from "../../helpers/h2-peer.ts";
import { openStream } from "../../helpers/raw-clients.ts";
import { underAttack, sharedTarget, expectUnharmed } from "./harness.ts";

const MB = 1024 * 1024;
const MAX_WINDOW = 2 ** 31 - 1;

const t = sharedTarget();

/** A topic and subscription of their own, and `n` messages of `size` bytes published to it. */
async function freshSubscription(ackDeadlineSeconds = 10): Promise<{ topic: string; sub: string }> {
  const topic = `projects/${PROJECT}/topics/${unique("fc")}`;
  const sub = `projects/${PROJECT}/subscriptions/${unique("fc")}`;
  await t.publisher.createTopic({ name: topic });
  await t.subscriber.createSubscription({ name: sub, topic, ackDeadlineSeconds });
  return { topic, sub };
}
async function publish(topic: string, n: number, size: number): Promise<void> {
  for (let i = 0; i < n; i++) await t.publisher.publish({ topic, messages: [{ data: Buffer.alloc(size, i % 251) }] });
}

/** Opens a raw StreamingPull on stream 1 of `peer` for `sub`. */
function streamingPull(peer: Peer, sub: string): void {
  peer.send(frame(T.HEADERS, 4, 1, requestBlock(STREAMING_PULL)), frame(T.DATA, 0, 1, streamingPullRequest(sub, 10)));
}

test("a StreamingPull behind a window the client never opens is sent no DATA and keeps no message from the others for longer than its leases", async () => {
  const { topic, sub } = await freshSubscription();
  const N = 20;
  const got = new Set<string>();
  let held = -1;
  const f = await underAttack(t, "zero-window StreamingPull", async () => {
    const peer = new Peer(t.port, settings([[4, 0]]));
    streamingPull(peer, sub);
    await peer.next((x) => x.type === T.SETTINGS && (x.flags & 1) === 1);
    await publish(topic, N, 256 * 1024);
    // An official client's StreamingPull on the same subscription gets what the stalled one was not
    // given at once, and the rest once their 10 s leases to the stalled stream expire.
    const good = openStream(t.subscriber, { subscription: sub, streamAckDeadlineSeconds: 10 });
    const end = Date.now() + 30_000;
    while (got.size < N && Date.now() < end) {
      for (const m of good.received.splice(0)) {
        got.add(m.data[0]!.toString());
        good.write({ ackIds: [m.ackId] });
      }
      await Bun.sleep(20);
    }
    good.cancel();
    held = peer.dataBytes.get(1) ?? 0;
    const response = peer.frames.find((x) => x.type === T.HEADERS && x.stream === 1);
    peer.destroy();
    return `${N} × 256 KiB published; the stalled stream got ${held} DATA bytes${response ? " (headers only)" : ""}; the official client got ${got.size}`;
  }, 1000);
  expect(held).toBe(0);
  expect(got.size).toBe(N);
  expectUnharmed(f);
}, 60_000);

test("slow read of a large response: 20 MB to a client that stops reading its socket, then reads slowly; the server holds a bounded amount and delivers it all", async () => {
  const { topic, sub } = await freshSubscription(60);
  const N = 20;
  let received = 0;
  const f = await underAttack(t, "slow read", async () => {
    // Windows opened wide: only the socket holds the server back.
    const peer = new Peer(t.port, Buffer.concat([settings([[4, MAX_WINDOW]]), frame(T.WINDOW_UPDATE, 0, 0, u32(MAX_WINDOW - 65_535))]), false);
    streamingPull(peer, sub);
    await peer.next((x) => x.type === T.SETTINGS && (x.flags & 1) === 1);
    peer.socket.pause();
    await publish(topic, N, MB);
    await Bun.sleep(1000);
    // Reads 5 ms in every 50 until everything came, at most 30 s.
    const end = Date.now() + 30_000;
    while ((peer.dataBytes.get(1) ?? 0) < N * MB && Date.now() < end) {
      peer.socket.resume();
      await Bun.sleep(5);
      peer.socket.pause();
      await Bun.sleep(45);
    }
    peer.socket.resume();
    received = peer.dataBytes.get(1) ?? 0;
    peer.destroy();
    return `${N} × 1 MB published to a reader paused for 1 s, then reading 5 ms in 50: ${(received / MB).toFixed(1)} MB of DATA received`;
  });
  expect(received).toBeGreaterThanOrEqual(N * MB);
  // The messages themselves are 20 MB of the store; what waits for the socket is bounded besides.
  expectUnharmed(f, 20 + 64);
}, 90_000);

test("a stream window pushed past 2^31−1 is RST_STREAM FLOW_CONTROL_ERROR; the connection lives", async () => {
  const peer = new Peer(t.port);
  peer.send(frame(T.HEADERS, 4, 1, requestBlock(STREAMING_PULL)), frame(T.WINDOW_UPDATE, 0, 1, u32(MAX_WINDOW)));
  const rst = await peer.next((x) => x.type === T.RST_STREAM && x.stream === 1);
  expect(rst?.payload.readUInt32BE(0)).toBe(3);
  peer.send(frame(T.PING, 0, 0, Buffer.from("stillup!")));
  expect(await peer.next((x) => x.type === T.PING && (x.flags & 1) === 1)).not.toBeNull();
  peer.destroy();
});

test("SETTINGS_INITIAL_WINDOW_SIZE that takes an open stream's window past 2^31−1 is GOAWAY FLOW_CONTROL_ERROR", async () => {
  const peer = new Peer(t.port);
  peer.send(frame(T.HEADERS, 4, 1, requestBlock(STREAMING_PULL)), frame(T.WINDOW_UPDATE, 0, 1, u32(MAX_WINDOW - 65_535)), settings([[4, 65_536]]));
  expect(goawayCode(await peer.goaway())).toBe(3);
  peer.destroy();
});

test("SETTINGS_INITIAL_WINDOW_SIZE of 2^31 is GOAWAY FLOW_CONTROL_ERROR", async () => {
  const peer = new Peer(t.port, settings([[4, 2 ** 31]]));
  expect(goawayCode(await peer.goaway())).toBe(3);
  peer.destroy();
});

test("stream ids used up: a request on stream 2^31−1 is served, the next HEADERS is GOAWAY PROTOCOL_ERROR; nothing is kept per id skipped", async () => {
  const peer = new Peer(t.port);
  const last = MAX_WINDOW;
  peer.send(frame(T.HEADERS, 5, 1, requestBlock("/google.pubsub.v1.Publisher/GetTopic")), frame(T.HEADERS, 5, last, requestBlock("/google.pubsub.v1.Publisher/GetTopic")));
  expect(await peer.next((x) => x.type === T.HEADERS && x.stream === last)).not.toBeNull();
  peer.send(frame(T.HEADERS, 5, 3, requestBlock("/google.pubsub.v1.Publisher/GetTopic")));
  const g = await peer.goaway();
  expect(goawayCode(g)).toBe(1);
  expect(g!.payload.readUInt32BE(0)).toBe(last);
  peer.destroy();
});

/**
 * Rapid reset (CVE-2023-44487): a client opens streams and cancels each at once, so the
 * concurrent-stream limit never binds and the server does a call's set-up per pair. The raw
 * server counts streams the client resets while open (and streams it refuses): past 2× the limit
 * (2,000) within 10 s the connection ends with GOAWAY ENHANCE_YOUR_CALM. Of those, streams
 * cancelled before any answer within 10 ms of their HEADERS ("premature") may be 200 in 10 s,
 * plus one per stream answered to its end: a client cancelling calls it waited on (a Pull past
 * its deadline) is never cut off by that.
 */
import { expect, test } from "bun:test";
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import * as net from "node:net";
import { PROJECT, unique } from "../../helpers/emulator.ts";
import { Peer, T, frame, goawayCode, grpcMessage, requestBlock, u32, varint } from "../../helpers/h2-peer.ts";
import { flood, underAttack, sharedTarget, expectUnharmed } from "./harness.ts";

const ATTEMPTS = 100_000;
const PER_BATCH = 500;
/** Streams a connection may have cancelled prematurely within the window (connection.ts). */
const PREMATURE = 200;
const CANCEL = 8;

const t = sharedTarget();

const block = requestBlock("/google.pubsub.v1.Publisher/GetTopic");
/** Batch i: PER_BATCH streams, each HEADERS then RST_STREAM CANCEL. */
const openAndCancel = (i: number) =>
  Buffer.concat(
    Array.from({ length: PER_BATCH }, (_, k) => {
      const id = 1 + 2 * (i * PER_BATCH + k);
      return Buffer.concat([frame(T.HEADERS, 4, id, block), frame(T.RST_STREAM, 0, id, u32(CANCEL))]);
    }),
  );

test("opening and cancelling 100,000 streams ends in GOAWAY ENHANCE_YOUR_CALM after the premature budget; memory bounded; others served", async () => {
  let goaway: Awaited<ReturnType<Peer["goaway"]>> = null;
  let sent = 0;
  const f = await underAttack(t, "rapid reset", async () => {
    const peer = new Peer(t.port);
    sent = await flood(peer, openAndCancel, PER_BATCH, ATTEMPTS);
    goaway = await peer.goaway(10_000);
    peer.destroy();
    const last = goaway ? goaway.payload.readUInt32BE(0) : -1;
    return `${sent.toLocaleString("en")} of ${ATTEMPTS.toLocaleString("en")} pairs written, GOAWAY code ${goawayCode(goaway)} after stream ${last} (${(last + 1) / 2} opened)`;
  });
  expect(goawayCode(goaway)).toBe(11);
  // The last stream the server opened: the budget, plus a batch whose pairs a late turn may have split.
  expect(goaway!.payload.readUInt32BE(0)).toBeLessThan(2 * (PREMATURE + PER_BATCH));
  expectUnharmed(f);
  expect(f.ok).toBeGreaterThan(0);
}, 60_000);

/** A PING answered, and no GOAWAY so far: the connection is in step and kept. */
async function expectKept(peer: Peer, mark: string) {
  peer.send(frame(T.PING, 0, 0, Buffer.from(mark)));
  const pong = await peer.next((x) => x.type === T.PING && (x.flags & 1) === 1 && x.payload.toString() === mark, 10_000);
  expect(pong?.payload.toString()).toBe(mark);
  expect(peer.frames.some((x) => x.type === T.GOAWAY)).toBe(false);
}

test("a client cancelling fewer streams at once than the premature budget keeps its connection", async () => {
  const peer = new Peer(t.port);
  peer.send(openAndCancel(0).subarray(0, (PREMATURE - 10) * (openAndCancel(0).length / PER_BATCH)));
  await expectKept(peer, "stillup!");
  peer.destroy();
}, 20_000);

test("streams cancelled after they waited are not premature: 1,800 cancelled in two rounds keep the connection", async () => {
  const peer = new Peer(t.port);
  const N = 900;
  for (let round = 0; round < 2; round++) {
    const ids = Array.from({ length: N }, (_, k) => 1 + 2 * (round * N + k));
    peer.send(Buffer.concat(ids.map((id) => frame(T.HEADERS, 4, id, block))));
    // Read and open on the server (its answer to a PING after them), then left waiting a while.
    await expectKept(peer, `opened-${round}`);
    await Bun.sleep(50);
    peer.send(Buffer.concat(ids.map((id) => frame(T.RST_STREAM, 0, id, u32(CANCEL)))));
  }
  await expectKept(peer, "kept-it!");
  peer.destroy();
}, 30_000);

test("Pulls cancelled by their client after 20 ms, before any answer, over and over, keep the connection", async () => {
  const PULLS = PREMATURE + 100;
  const subscription = `projects/${PROJECT}/subscriptions/${unique("cancelled-pull")}`;
  await t.subscriber.createSubscription({ name: subscription, topic: t.topic });
  const name = Buffer.from(subscription);
  // A Pull with no grpc-timeout: the server waits, and only the client's cancel ends it.
  const pull = frame(T.DATA, 1, 0, grpcMessage(Buffer.concat([Buffer.from([0x0a, ...varint(name.length)]), name, Buffer.from([0x18, 1])])));
  const headers = requestBlock("/google.pubsub.v1.Subscriber/Pull");
  const peer = new Peer(t.port);
  for (let i = 0; i < PULLS && !peer.closed; i++) {
    const id = 1 + 2 * i;
    pull.writeUInt32BE(id, 5);
    peer.send(frame(T.HEADERS, 4, id, headers), pull);
    await Bun.sleep(20);
    peer.send(frame(T.RST_STREAM, 0, id, u32(CANCEL)));
  }
  await expectKept(peer, "pulled!!");
  // Each was cancelled unanswered.
  expect(peer.frames.filter((x) => x.type === T.HEADERS).length).toBe(0);
  peer.destroy();
}, 30_000);

/** A loopback forwarder to `port` that counts the TCP connections made through it. */
function countingProxy(port: number): Promise<{ port: number; connections: () => number; close: () => void }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => (client.destroy(), upstream.destroy()));
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        connections: () => connections,
        close: () => {
          for (const s of sockets) s.destroy();
          server.close();
        },
      }),
    ),
  );
}

test("an official client pulling with a short deadline, over and over, stays served on one connection", async () => {
  const PULLS = PREMATURE + 100;
  const proxy = await countingProxy(t.port);
  const client = new v1.SubscriberClient({ servicePath: "127.0.0.1", port: proxy.port, sslCreds: grpc.credentials.createInsecure(), projectId: PROJECT });
  try {
    // Its own subscription, that nothing is published to: every Pull waits out its deadline.
    const subscription = `projects/${PROJECT}/subscriptions/${unique("short-pull")}`;
    await client.createSubscription({ name: subscription, topic: t.topic });
    const codes = new Map<number | string, number>();
    const end = Date.now() + 45_000;
    for (let i = 0; i < PULLS && Date.now() < end; i++) {
      let code: number | string = "answered";
      try {
        await client.pull({ subscription, maxMessages: 1 }, { timeout: 20, retry: null });
      } catch (e) {
        code = (e as { code?: number }).code ?? String(e);
      }
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    console.log(`[h2 attack] ${PULLS} Pulls with a 20 ms deadline: ${JSON.stringify([...codes])}, ${proxy.connections()} connection(s)`);
    expect([...codes]).toEqual([[grpc.status.DEADLINE_EXCEEDED, PULLS]]);
    expect(proxy.connections()).toBe(1);
  } finally {
    await client.close();
    proxy.close();
  }
}, 60_000);

/**
 * Control-frame floods (CVE-2019-9512 ping, -9515 settings, -9518 empty frames, and WINDOW_UPDATE):
 * frames that each ask for a little work and move no request on. A client that reads its
 * answers is not stopped by the control backlog (raw-h2.test.ts covers one that does not read);
 * past 1,000 such frames in a second (plus four per DATA frame we sent) the connection ends
 * with GOAWAY ENHANCE_YOUR_CALM.
 */
import { expect, test } from "bun:test";
import { Peer, STREAMING_PULL, T, frame, requestBlock, settings, streamingPullRequest, u32 } from "../../helpers/h2-peer.ts";
import { flood, procStats, underAttack, sharedTarget, goawayOf, expectUnharmed } from "./harness.ts";

const FRAMES = 1_000_000;
const PER_BATCH = 5000;

const t = sharedTarget();

const batchOf = (f: Buffer) => Buffer.concat(Array.from({ length: PER_BATCH }, () => f));
/** An open StreamingPull stream (no request yet) for the frames that need one. */
const OPEN = frame(T.HEADERS, 4, 1, requestBlock(STREAMING_PULL));

test.each([
  ["SETTINGS", Buffer.alloc(0), batchOf(settings([[1, 4096]]))],
  ["PING", Buffer.alloc(0), batchOf(frame(T.PING, 0, 0, Buffer.alloc(8)))],
  ["empty DATA", OPEN, batchOf(frame(T.DATA, 0, 1))],
  ["WINDOW_UPDATE", Buffer.alloc(0), batchOf(frame(T.WINDOW_UPDATE, 0, 0, u32(1)))],
  ["PRIORITY", OPEN, batchOf(frame(T.PRIORITY, 0, 1, Buffer.from([0, 0, 0, 0, 16])))],
] as [string, Buffer, Buffer][])("a flood of %s frames from a client that reads ends in GOAWAY ENHANCE_YOUR_CALM", async (name, first, batch) => {
  let code = -1;
  const f = await underAttack(t, `${name} flood`, async () => {
    const peer = new Peer(t.port, Buffer.concat([frame(T.SETTINGS, 0, 0), first]), false);
    const sent = await flood(peer, () => batch, PER_BATCH, FRAMES);
    code = await goawayOf(peer);
    return `${sent.toLocaleString("en")} frames written, GOAWAY code ${code}`;
  });
  expect(code).toBe(11);
  expectUnharmed(f);
  expect(f.ok).toBeGreaterThan(0);
}, 60_000);

test("SETTINGS frames of 2,730 initial-window entries with 1,000 streams open move each window once per frame; all acknowledged", async () => {
  const peer = new Peer(t.port, undefined, false);
  const block = requestBlock(STREAMING_PULL);
  peer.send(...Array.from({ length: 1000 }, (_, i) => frame(T.HEADERS, 4, 1 + 2 * i, block)));
  const big = settings(Array.from({ length: 2730 }, (_, i) => [4, 65_535 + (i % 2)] as [number, number]));
  const before = procStats(t.server.pid);
  peer.send(...Array.from({ length: 200 }, () => big));
  const acks = () => peer.frames.filter((x) => x.type === T.SETTINGS && x.flags & 1).length;
  // Ours for the opening SETTINGS, then one per big frame.
  await peer.next(() => acks() >= 201, 20_000);
  const cpu = procStats(t.server.pid).cpuMs - before.cpuMs;
  console.log(`[h2 attack] 200 SETTINGS of 2,730 entries, 1,000 streams open: server CPU ${cpu} ms (loaded shared host)`);
  expect(acks()).toBe(201);
  expect(peer.frames.some((x) => x.type === T.GOAWAY)).toBe(false);
  peer.destroy();
}, 30_000);

test("a client that answers every DATA frame with two WINDOW_UPDATEs and a PING (1 KiB windows) receives 8 MB without being cut off", async () => {
  const topic = `${t.topic}-bdp`;
  const sub = `${t.sub}-bdp`;
  await t.publisher.createTopic({ name: topic });
  await t.subscriber.createSubscription({ name: sub, topic, ackDeadlineSeconds: 60 });
  const peer = new Peer(t.port, settings([[4, 1024]]), false);
  let control = 0;
  peer.onFrame = (f) => {
    if (f.type !== T.DATA || f.payload.length === 0) return;
    peer.send(frame(T.WINDOW_UPDATE, 0, f.stream, u32(f.payload.length)), frame(T.WINDOW_UPDATE, 0, 0, u32(f.payload.length)), frame(T.PING, 0, 0, Buffer.alloc(8)));
    control += 3;
  };
  peer.send(frame(T.HEADERS, 4, 1, requestBlock(STREAMING_PULL)), frame(T.DATA, 0, 1, streamingPullRequest(sub, 60)));
  await peer.next((x) => x.type === T.SETTINGS && (x.flags & 1) === 1);
  for (let i = 0; i < 80; i++) await t.publisher.publish({ topic, messages: [{ data: Buffer.alloc(100_000, i) }] });
  const t0 = Date.now();
  await peer.next(() => (peer.dataBytes.get(1) ?? 0) >= 8_000_000, 30_000);
  const secs = (Date.now() - t0) / 1000;
  console.log(`[h2 attack] BDP-like client: ${control} control frames answering ${((peer.dataBytes.get(1) ?? 0) / 1e6).toFixed(1)} MB in ${secs.toFixed(1)} s (${Math.round(control / secs)}/s) (loaded shared host)`);
  expect(peer.dataBytes.get(1) ?? 0).toBeGreaterThanOrEqual(8_000_000);
  expect(peer.frames.some((x) => x.type === T.GOAWAY)).toBe(false);
  peer.destroy();
}, 60_000);

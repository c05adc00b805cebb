/**
 * Rapid reset (CVE-2023-44487): a client opens streams and cancels each at once, so the
 * concurrent-stream limit never binds and the server does a call's set-up per pair. The raw
 * server counts streams the client resets while open (and streams it refuses): past 2× the limit
 * (2,000) within 10 s the connection ends with GOAWAY ENHANCE_YOUR_CALM.
 */
import { expect, test } from "bun:test";
import { Peer, T, frame, goawayCode, requestBlock, u32 } from "../../helpers/h2-peer.ts";
import { flood, underAttack, sharedTarget, expectUnharmed } from "./harness.ts";

const ATTEMPTS = 100_000;
const PER_BATCH = 500;
/** Streams a connection may reset or have refused within the window (server.ts's limit × 2). */
const BUDGET = 2000;
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

test("opening and cancelling 100,000 streams ends in GOAWAY ENHANCE_YOUR_CALM after the budget; memory bounded; others served", async () => {
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
  // The last stream the server opened: the budget plus what one read of the socket held past it.
  expect(goaway!.payload.readUInt32BE(0)).toBeLessThan(2 * (BUDGET + 2 * PER_BATCH));
  expectUnharmed(f);
  expect(f.ok).toBeGreaterThan(0);
}, 60_000);

test("a client cancelling fewer streams than the budget keeps its connection", async () => {
  const peer = new Peer(t.port);
  peer.send(Buffer.concat([openAndCancel(0), openAndCancel(1), openAndCancel(2)]));
  peer.send(frame(T.PING, 0, 0, Buffer.from("stillup!")));
  const pong = await peer.next((x) => x.type === T.PING && (x.flags & 1) === 1, 10_000);
  expect(pong?.payload.toString()).toBe("stillup!");
  expect(peer.frames.some((x) => x.type === T.GOAWAY)).toBe(false);
  peer.destroy();
}, 20_000);

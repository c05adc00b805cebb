/**
 * Structure-aware fuzzing of the raw HTTP/2 server's frame layer and HPACK decoder
 * (src/grpc/h2/) with fast-check: sequences of frames of every type, HPACK blocks of every field
 * kind, cut into chunks anywhere (h2-arbitraries.ts). In process, each case drives a fresh
 * connection of the real server (gRPC routes and RPC table on a broker) over a pipe that may stop
 * taking bytes; over a socket, a running server gets the same bytes. A throw that escapes, an
 * INTERNAL fault, a connection that neither answers a PING nor ends (a hang), or a buffer past
 * its bound fails the case. FUZZ_SEED and FUZZ_CASES change the run; fast-check prints the seed
 * and path of a failure.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { rawServer, type RawServer } from "../../src/grpc/h2/server.ts";
import { createRpcTable } from "../../src/rpc/table.ts";
import { internalErrorCount } from "../../src/runtime/internal-errors.ts";
import { setLogLevel } from "../../src/runtime/log.ts";
import { makeSub, makeTopic, setup } from "../helpers/core.ts";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { Peer, T, frame } from "../helpers/h2-peer.ts";
import { FakeWire } from "../helpers/h2-wire.ts";
import { clientBytes } from "./h2-arbitraries.ts";
import { fuzzSeed, FUZZ_CASES } from "./generators.ts";

const SEED = fuzzSeed(20261127);
const CASES = FUZZ_CASES;
/** A case's bytes are handled synchronously: far less than this, or it is a hang. */
const CASE_MS = 2000;
/** What may wait for a pipe that takes nothing: our SETTINGS and answers, a scratch buffer of DATA, the control backlog. */
const HELD_LIMIT = 3 * 1024 * 1024;
const PING = frame(T.PING, 0, 0, Buffer.from("fuzzping"));

const TOPIC = "projects/fuzz/topics/fuzz";
const SUB = "projects/fuzz/subscriptions/fuzz";

let server: RawServer;
let emu: TestEmulator;
let internalBefore = 0;

beforeAll(async () => {
  setLogLevel("silent");
  const { broker } = setup();
  makeTopic(broker, { name: TOPIC });
  makeSub(broker, TOPIC, { name: SUB });
  server = rawServer(createRpcTable(broker));
  emu = await startTestEmulator({ grpcServer: "raw" });
  await emu.client({ projectId: "fuzz" }).createTopic("fuzz").then(([t]) => t.createSubscription("fuzz"));
  internalBefore = internalErrorCount();
});
afterAll(async () => {
  server?.close();
  await emu?.close();
});

interface Inner {
  carryBytes: number;
  streams: Map<number, unknown>;
  block: { bytes: number } | null;
  dead: boolean;
}

test(`in process: ${CASES * 4} frame sequences (seed ${SEED}) never throw, never fault, stay bounded, and answer a PING or end`, async () => {
  const room = fc.oneof({ weight: 3, arbitrary: fc.constant(Infinity) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 4096 }) });
  await fc.assert(
    fc.asyncProperty(clientBytes, room, async ({ chunks, tail }, room) => {
      const c = server.connection();
      const wire = new FakeWire(room);
      c.attach(wire);
      const inner = c as unknown as Inner;
      const t0 = performance.now();
      for (const chunk of chunks) c.read(chunk);
      await Bun.sleep(0);
      expect(wire.held).toBeLessThanOrEqual(HELD_LIMIT);
      expect(inner.carryBytes).toBeLessThanOrEqual(16_384 + 9);
      expect(inner.block?.bytes ?? 0).toBeLessThanOrEqual(256 * 1024);
      expect(inner.streams.size).toBeLessThanOrEqual(1000);
      if (room === Infinity) {
        // The last frame completed, a PING is answered, or (the PING, or that frame, may be the
        // error: a header block left open) the connection has ended, with a GOAWAY saying why.
        if (!inner.dead) {
          if (tail.length) c.read(tail);
          c.read(PING);
          await Bun.sleep(0);
        }
        const pong = wire.frames.some((f) => f.type === T.PING && f.flags & 1 && f.payload.toString() === "fuzzping");
        expect(pong || (inner.dead && wire.frames.some((f) => f.type === T.GOAWAY))).toBe(true);
      }
      expect(performance.now() - t0).toBeLessThan(CASE_MS);
      expect(internalErrorCount()).toBe(internalBefore);
      c.destroy();
    }),
    { seed: SEED, numRuns: CASES * 4 },
  );
}, 120_000);

test(`over a socket: ${Math.max(10, CASES / 4)} frame sequences to a running server are each answered or ended within a bound; the server serves after`, async () => {
  const seen = { pong: 0, goaway: 0, closed: 0 };
  await fc.assert(
    fc.asyncProperty(clientBytes, async ({ chunks, tail }) => {
      const peer = new Peer(emu.port, null);
      for (const chunk of chunks) peer.send(chunk);
      peer.send(tail, PING);
      const answer = await peer.next((f) => (f.type === T.PING && (f.flags & 1) === 1 && f.payload.toString() === "fuzzping") || f.type === T.GOAWAY, 5000);
      const ended = answer !== null || (await peer.closedWithin(1000));
      if (answer?.type === T.PING) seen.pong++;
      else if (answer) seen.goaway++;
      else if (ended) seen.closed++;
      peer.destroy();
      expect(ended).toBe(true);
    }),
    { seed: SEED, numRuns: Math.max(10, CASES / 4) },
  );
  console.log(`[h2 fuzz] over a socket: ${seen.pong} answered the PING, ${seen.goaway} ended with GOAWAY, ${seen.closed} closed`);
  expect(seen.pong).toBeGreaterThan(0);
  expect(internalErrorCount()).toBe(internalBefore);
  const [topics] = await emu.client({ projectId: "fuzz" }).getTopics();
  expect(topics.map((t) => t.name)).toContain(TOPIC);
}, 120_000);

/**
 * Fairness between connections: one read of a raw HTTP/2 connection works about 1 ms, then
 * pauses its socket and reads on in a later turn of the event loop, so a client that sends a
 * flood of frames (or of costly requests) in one chunk cannot hold up other clients' requests for
 * the whole chunk. Tested in process with requests whose handler takes 0.25 ms each: the work of
 * one chunk is spread over turns, other work runs between them, nothing is lost or reordered.
 */
import { expect, test } from "bun:test";
import { H2Connection } from "../../../src/grpc/h2/connection.ts";
import { PREFACE, T, frame, requestBlock } from "../../helpers/h2-peer.ts";
import { FakeWire, PausableWire } from "../../helpers/h2-wire.ts";
import { waitFor } from "../../helpers/wait.ts";

const HANDLER_MS = 0.25;

/** A connection whose every request's handler keeps the event loop HANDLER_MS; the stream ids in the order started. */
function slowServer(wire: FakeWire) {
  const started: number[] = [];
  const c = new H2Connection({
    window: 65_535,
    maxConcurrentStreams: 1000,
    maxHeaderListSize: 64 * 1024,
    onStream: (s) => {
      started.push(s.id);
      const until = performance.now() + HANDLER_MS;
      while (performance.now() < until);
    },
    onOversized: () => {},
  });
  c.attach(wire);
  return { c, started };
}

const requests = (from: number, n: number) => Buffer.concat(Array.from({ length: n }, (_, i) => frame(T.HEADERS, 5, from + 2 * i, requestBlock("/x"))));
const PING = frame(T.PING, 0, 0, Buffer.from("between!"));

test("a chunk of 200 slow requests is read over several turns, with other work between them; every request starts, in order", async () => {
  const wire = new PausableWire();
  const { c, started } = slowServer(wire);
  c.read(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0), requests(1, 200)]));
  expect(started.length).toBeLessThan(200);
  expect(wire.paused).toBe(true);
  // Another connection's request, and a timer of this loop, run before the first one is done.
  const other = new PausableWire();
  const { c: c2 } = slowServer(other);
  let startedWhenOtherRan = -1;
  setImmediate(() => {
    c2.read(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0), PING]));
    startedWhenOtherRan = started.length;
  });
  // More bytes the socket hands over while paused wait behind the rest.
  c.read(requests(401, 10));
  await waitFor(() => started.length === 210, 10_000, () => `${started.length} of 210 started`);
  console.log(`[h2 fairness] 200 requests of ${HANDLER_MS} ms in one chunk: read in ${wire.pauses + 1} turns; another connection ran after ${startedWhenOtherRan}`);
  expect(startedWhenOtherRan).toBeGreaterThanOrEqual(0);
  expect(startedWhenOtherRan).toBeLessThan(200);
  expect(other.frames.some((f) => f.type === T.PING && f.flags & 1 && f.payload.toString() === "between!")).toBe(true);
  expect(started).toEqual(Array.from({ length: 210 }, (_, i) => (i < 200 ? 1 + 2 * i : 401 + 2 * (i - 200))));
  await waitFor(() => !wire.paused, 1000, "the socket resumed");
  // Still in step: a PING now is answered at once.
  c.read(PING);
  expect(wire.frames.filter((f) => f.type === T.PING && f.flags & 1).length).toBe(1);
  c.destroy();
  c2.destroy();
});

test("a wire that cannot pause is read to the end in one turn", () => {
  const wire = new FakeWire();
  const { c, started } = slowServer(wire);
  c.read(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0), requests(1, 50)]));
  expect(started.length).toBe(50);
  c.destroy();
});

test("a connection that ends during its turns reads nothing more and resumes nothing", async () => {
  const wire = new PausableWire();
  const { c, started } = slowServer(wire);
  c.read(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0), requests(1, 200)]));
  expect(wire.paused).toBe(true);
  const at = started.length;
  c.destroy();
  await Bun.sleep(20);
  expect(started.length).toBe(at);
});

/**
 * What the raw HTTP/2 connection holds for a client that opens its windows wide and does not read
 * (a stalled reader, or a slow read of a large response), counted in process on a pipe that takes
 * 256 KiB and then nothing: the writes past the socket stop after about one scratch buffer
 * (1 MiB) and the rest stays in its stream, whose write() answers false, instead of the whole
 * window's worth of DATA waiting for the socket. Past 64 MiB written and not sent, a connection that
 * has sent no DATA for the stall time (10 s; 100 ms here) is ended.
 */
import { expect, test } from "bun:test";
import { H2Connection } from "../../../src/grpc/h2/connection.ts";
import type { H2Stream } from "../../../src/grpc/h2/stream.ts";
import { PREFACE, T, frame, requestBlock, settings, u32 } from "../../helpers/h2-peer.ts";
import { FakeWire } from "../../helpers/h2-wire.ts";

const MiB = 1024 * 1024;

test("a client with 2^31−1 windows that stops reading holds at most ~1 MiB waiting for its socket, however much its stream is given", async () => {
  let stream: H2Stream | null = null;
  let written = 0;
  const c = new H2Connection({
    window: 16 * MiB,
    maxConcurrentStreams: 100,
    maxHeaderListSize: 64 * 1024,
    onStream: (s) => {
      stream = s;
      s.respond({ ":status": 200 });
      // A producer that respects backpressure, as the gRPC layer does: writes until false, again on 'drain'.
      const chunk = Buffer.alloc(MiB, 1);
      const more = () => {
        while (written < 64 * MiB) {
          written += chunk.length;
          if (!s.write(chunk)) return;
        }
      };
      s.on("drain", more);
      more();
    },
    onOversized: () => {},
  });
  const wire = new FakeWire(256 * 1024, false);
  c.attach(wire);
  c.read(Buffer.concat([PREFACE, settings([[4, 2 ** 31 - 1]]), frame(T.WINDOW_UPDATE, 0, 0, u32(2 ** 31 - 1 - 65_535)), frame(T.HEADERS, 4, 1, requestBlock("/x"))]));
  await Bun.sleep(10);
  expect(stream).not.toBeNull();
  console.log(`[h2 attack] wide windows, no reading: ${(wire.taken / MiB).toFixed(2)} MiB taken, ${(wire.held / MiB).toFixed(2)} MiB waiting, ${(stream!.pendingBytes / MiB).toFixed(2)} MiB in the stream, ${written / MiB} MiB written by the producer`);
  expect(wire.held).toBeLessThanOrEqual(MiB + 16 * 1024);
  expect(stream!.pendingBytes).toBeLessThanOrEqual(MiB + 64 * 1024);
  expect(written).toBeLessThanOrEqual(4 * MiB);
  // The client reads again: everything the producer writes reaches it.
  wire.room = Infinity;
  wire.held = 0;
  c.drained();
  await Bun.sleep(10);
  expect(written).toBe(64 * MiB);
  c.destroy();
});

/** A connection whose `streams` streams each answer `bytes` at once (as unary responses do, past backpressure). */
function responder(streams: number, bytes: number, wire: FakeWire) {
  const opened: H2Stream[] = [];
  // One buffer for every response, made before the connection: its filling is no stall of the client's.
  const body = Buffer.alloc(bytes, 1);
  const c = new H2Connection({
    window: 16 * MiB,
    maxConcurrentStreams: 100,
    maxHeaderListSize: 64 * 1024,
    stallMs: 100,
    onStream: (s) => {
      opened.push(s);
      s.respond({ ":status": 200 });
      s.end(body);
    },
    onOversized: () => {},
  });
  c.attach(wire);
  c.read(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0), ...Array.from({ length: streams }, (_, i) => frame(T.HEADERS, 5, 1 + 2 * i, requestBlock("/x")))]));
  return { c, opened, more: (id: number) => c.read(frame(T.HEADERS, 5, id, requestBlock("/x"))) };
}

test("more than 64 MiB of responses to a client that reads nothing for the stall time: the connection is ended", async () => {
  const wire = new FakeWire(0, false);
  const { c, more } = responder(7, 10 * MiB, wire);
  await Bun.sleep(150);
  // 70 MiB unsent and nothing sent for 150 ms: the next response ends it.
  more(15);
  await Bun.sleep(10);
  expect((c as unknown as { dead: boolean }).dead).toBe(true);
  expect(wire.ended).toBe(true);
  c.destroy();
});

test("the same responses to a client that keeps reading at its window's pace (each read sends DATA) are not cut off", async () => {
  const wire = new FakeWire(Infinity, false);
  const { c, more } = responder(7, 10 * MiB, wire);
  for (let i = 0; i < 10; i++) {
    await Bun.sleep(20);
    c.read(Buffer.concat([frame(T.WINDOW_UPDATE, 0, 0, u32(65_536)), frame(T.WINDOW_UPDATE, 0, 1, u32(65_536))]));
  }
  more(15);
  await Bun.sleep(10);
  expect((c as unknown as { dead: boolean }).dead).toBe(false);
  expect(wire.ended).toBe(false);
  c.destroy();
});

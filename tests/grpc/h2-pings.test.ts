/**
 * PING answers of the raw HTTP/2 connection are written side by side into shared buffers (a
 * flood allocates nothing per PING): each one still carries its own payload, in the order asked,
 * in its place among the other frames the connection sends.
 */
import { expect, test } from "bun:test";
import { H2Connection } from "../../src/grpc/h2/connection.ts";
import { PREFACE, T, frame } from "../helpers/h2-peer.ts";
import { FakeWire } from "../helpers/h2-wire.ts";

const ping = (i: number) => {
  const p = Buffer.alloc(8);
  p.writeUInt32BE(i, 4);
  return frame(T.PING, 0, 0, p);
};

test("600 PINGs across buffers and reads, a SETTINGS between them: every answer in order, the SETTINGS ACK in its place", async () => {
  const wire = new FakeWire();
  const c = new H2Connection({ window: 65_535, maxConcurrentStreams: 10, maxHeaderListSize: 64 * 1024, onStream: () => {}, onOversized: () => {} });
  c.attach(wire);
  c.read(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0), ...Array.from({ length: 300 }, (_, i) => ping(i)), frame(T.SETTINGS, 0, 0), ...Array.from({ length: 100 }, (_, i) => ping(300 + i))]));
  // A PING ACK from the client is not answered; a PING split across reads is.
  c.read(frame(T.PING, 1, 0, Buffer.alloc(8)));
  for (let i = 400; i < 600; i++) {
    const b = ping(i);
    c.read(b.subarray(0, 5));
    c.read(b.subarray(5));
  }
  await Bun.sleep(0);
  const answers = wire.frames.filter((f) => f.type === T.PING || (f.type === T.SETTINGS && f.flags & 1));
  const ids = answers.map((f) => (f.type === T.PING ? (f.flags === 1 ? f.payload.readUInt32BE(4) : -2) : -1));
  expect(ids).toEqual([-1, ...Array.from({ length: 300 }, (_, i) => i), -1, ...Array.from({ length: 300 }, (_, i) => 300 + i)]);
  expect(answers.every((f) => f.type !== T.PING || (f.stream === 0 && f.payload.length === 8))).toBe(true);
  c.destroy();
});

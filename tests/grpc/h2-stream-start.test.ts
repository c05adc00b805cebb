/**
 * A raw HTTP/2 connection hands a new stream to its handler at the read's next 16-frame boundary,
 * or before a frame that needs the handler (its DATA, its trailers), not at its HEADERS: a stream
 * the client cancels in the frames right after (rapid reset) never costs a call's set-up. Checked
 * in process: cancelled pairs mostly never start, and every stream that lives still starts, in
 * order, with all its data and its end.
 */
import { expect, test } from "bun:test";
import { H2Connection } from "../../src/grpc/h2/connection.ts";
import type { H2Stream } from "../../src/grpc/h2/stream.ts";
import { PREFACE, T, frame, requestBlock, u32 } from "../helpers/h2-peer.ts";
import { FakeWire } from "../helpers/h2-wire.ts";

const block = requestBlock("/x");

function server() {
  const started: number[] = [];
  const got = new Map<number, string>();
  const c = new H2Connection({
    window: 65_535,
    maxConcurrentStreams: 1000,
    maxHeaderListSize: 64 * 1024,
    onStream: (s: H2Stream) => {
      started.push(s.id);
      got.set(s.id, "");
      s.on("data", (d: Buffer) => got.set(s.id, got.get(s.id) + d.toString()));
      s.on("end", () => got.set(s.id, got.get(s.id) + "<end>"));
    },
    onOversized: () => {},
  });
  const wire = new FakeWire();
  c.attach(wire);
  return { c, wire, started, got };
}

test("streams cancelled in the frame after their HEADERS mostly never reach the handler", () => {
  const { c, wire, started } = server();
  const PAIRS = 80;
  const pairs = Array.from({ length: PAIRS }, (_, k) => Buffer.concat([frame(T.HEADERS, 4, 1 + 2 * k, block), frame(T.RST_STREAM, 0, 1 + 2 * k, u32(8))]));
  c.read(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0), ...pairs, frame(T.PING, 0, 0, Buffer.from("in step!"))]));
  // With the SETTINGS first, a boundary falls between a HEADERS and its RST_STREAM once in 8 pairs.
  expect(started.length).toBeLessThanOrEqual(PAIRS / 8 + 1);
  expect(wire.frames.some((f) => f.type === T.PING && f.flags & 1)).toBe(true);
  expect(wire.frames.some((f) => f.type === T.GOAWAY)).toBe(false);
  c.destroy();
});

test("streams that live start in order, with their DATA, trailers and END_STREAM, whatever frames lie between", () => {
  const { c, started, got } = server();
  c.read(
    Buffer.concat([
      PREFACE,
      frame(T.SETTINGS, 0, 0),
      frame(T.HEADERS, 5, 1, block), // ended by its HEADERS
      frame(T.HEADERS, 4, 3, block),
      frame(T.HEADERS, 4, 5, block),
      frame(T.DATA, 0, 5, Buffer.from("five")), // starts 1, 3 and 5, in that order
      frame(T.HEADERS, 4, 7, block),
      frame(T.DATA, 1, 3, Buffer.from("three")),
      frame(T.HEADERS, 5, 7, Buffer.alloc(0)), // empty trailers end 7
      frame(T.HEADERS, 4, 9, block), // started when the chunk ends
    ]),
  );
  expect(started).toEqual([1, 3, 5, 7, 9]);
  expect(Object.fromEntries(got)).toEqual({ 1: "<end>", 3: "three<end>", 5: "five", 7: "<end>", 9: "" });
  c.destroy();
});

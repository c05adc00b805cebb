/**
 * The raw HTTP/2 server (`--grpc-server raw`, src/grpc/h2/) against hostile frames sent by hand on
 * a TCP socket: each protocol error ends its connection with GOAWAY and the code RFC 9113 names,
 * or its stream with RST_STREAM, within a bounded time, and the server keeps serving official
 * clients. The fuzz suites (tests/fuzz) also run on it in CI.
 */
import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { PREFACE, Peer, SETTINGS, frame, goawayCode, literal, requestBlock, u32 } from "../helpers/h2-peer.ts";

let emu: TestEmulator;
const topic = `projects/${PROJECT}/topics/${unique("raw")}`;

beforeAll(async () => {
  emu = await startTestEmulator({ grpcServer: "raw" });
  await emu.client().createTopic(topic);
});
afterAll(async () => {
  await emu?.close();
});

describe("raw HTTP/2: connection errors end with GOAWAY and their code", () => {
  test.each([
    ["a frame larger than SETTINGS_MAX_FRAME_SIZE", 6, () => [frame(0, 0, 1, Buffer.alloc(20_000))]],
    ["a header block that does not decode (HPACK index past the tables)", 9, () => [frame(1, 5, 1, Buffer.from([0xff, 0xff, 0xff, 0x0f]))]],
    ["a header block interrupted by another frame", 1, () => [frame(1, 1, 1, requestBlock("/x")), frame(6, 0, 0, Buffer.alloc(8))]],
    ["HEADERS on stream 0", 1, () => [frame(1, 5, 0, requestBlock("/x"))]],
    ["HEADERS on an even (server) stream id", 1, () => [frame(1, 5, 2, requestBlock("/x"))]],
    ["a connection WINDOW_UPDATE of 0", 1, () => [frame(8, 0, 0, u32(0))]],
    ["a connection window pushed past 2^31-1", 3, () => [frame(8, 0, 0, u32(2 ** 31 - 1))]],
    ["SETTINGS of a length not a multiple of 6", 6, () => [frame(4, 0, 0, Buffer.alloc(5))]],
    ["PING of 7 bytes", 6, () => [frame(6, 0, 0, Buffer.alloc(7))]],
    ["PUSH_PROMISE from a client", 1, () => [frame(5, 4, 1, Buffer.alloc(4))]],
    ["DATA on an idle stream", 1, () => [frame(0, 0, 9, Buffer.from("x"))]],
  ] as [string, number, () => Buffer[]][])("%s → GOAWAY code %d", async (_name, code, frames) => {
    const peer = new Peer(emu.port);
    peer.send(...frames());
    expect(goawayCode(await peer.goaway())).toBe(code);
    peer.destroy();
  });

  test("a header block grown past 256 KiB with CONTINUATION frames → ENHANCE_YOUR_CALM, read no further", async () => {
    const peer = new Peer(emu.port);
    const part = Buffer.alloc(16_000, 0x41);
    peer.send(frame(1, 0, 1, part), ...Array.from({ length: 20 }, () => frame(9, 0, 1, part)));
    expect(goawayCode(await peer.goaway())).toBe(11);
    peer.destroy();
  });
});

describe("raw HTTP/2: what a client is owed", () => {
  test("PING is answered with an ACK carrying its payload", async () => {
    const peer = new Peer(emu.port);
    const payload = Buffer.from("12345678");
    peer.send(frame(6, 0, 0, payload));
    const pong = await peer.next((f) => f.type === 6 && (f.flags & 1) === 1);
    expect(pong?.payload.toString()).toBe("12345678");
    peer.destroy();
  });

  test("the client's SETTINGS are acknowledged and ours come first", async () => {
    const peer = new Peer(emu.port);
    const ack = await peer.next((f) => f.type === 4 && (f.flags & 1) === 1);
    expect(ack).not.toBeNull();
    expect(peer.frames[0]!.type).toBe(4);
    expect(peer.frames[0]!.flags & 1).toBe(0);
    peer.destroy();
  });

  test("a stream past the 1,000 open at once is refused with RST_STREAM REFUSED_STREAM; the others still answer", async () => {
    const peer = new Peer(emu.port);
    // StreamingPull streams stay open (no END_STREAM, no request yet).
    const block = requestBlock("/google.pubsub.v1.Subscriber/StreamingPull");
    const frames = Array.from({ length: 1001 }, (_, i) => frame(1, 4, 1 + 2 * i, block));
    peer.send(...frames);
    const rst = await peer.next((f) => f.type === 3 && f.stream === 2001);
    expect(rst?.payload.readUInt32BE(0)).toBe(7);
    peer.destroy();
  });

  test("a request whose header list is larger than 64 KiB is answered RESOURCE_EXHAUSTED on its stream; the connection lives", async () => {
    const peer = new Peer(emu.port);
    const big = literal("x-big", "v".repeat(70_000));
    const block = requestBlock("/google.pubsub.v1.Publisher/GetTopic", [big]);
    const first = block.subarray(0, 16_000);
    const parts = [frame(1, 1, 1, first)];
    for (let at = 16_000; at < block.length; at += 16_000) parts.push(frame(9, at + 16_000 >= block.length ? 4 : 0, 1, block.subarray(at, at + 16_000)));
    peer.send(...parts);
    const answer = await peer.next((f) => f.type === 1 && f.stream === 1);
    expect(answer?.payload.toString("latin1")).toContain("grpc-status");
    expect(answer?.payload.toString("latin1")).toMatch(/grpc-status.8/);
    peer.send(frame(6, 0, 0, Buffer.from("stillup!")));
    expect(await peer.next((f) => f.type === 6 && (f.flags & 1) === 1)).not.toBeNull();
    peer.destroy();
  });

  test("a client that floods PINGs and never reads is cut off, not buffered for without bound", async () => {
    const socket = net.connect(emu.port, "127.0.0.1");
    socket.on("error", () => {});
    socket.pause();
    const ping = frame(6, 0, 0, Buffer.alloc(8));
    const closed = new Promise<boolean>((r) => {
      socket.on("close", () => r(true));
      setTimeout(() => r(false), 20_000);
    });
    socket.write(Buffer.concat([PREFACE, SETTINGS]));
    // 4M pings' answers (68 MB) would have to be held for a client that does not read them.
    const burst = Buffer.concat(Array.from({ length: 10_000 }, () => ping));
    let sent = 0;
    let poke: ReturnType<typeof setInterval> | undefined;
    const pump = () => {
      while (sent < 400 && socket.write(burst)) sent++;
      if (socket.destroyed) return;
      if (sent < 400) socket.once("drain", pump);
      // All written (the server, cut off early by its control-frame budget, read and dropped the
      // rest): a paused socket notices the server's reset only when it writes again.
      else poke = setInterval(() => socket.write(ping), 100);
    };
    pump();
    expect(await closed).toBe(true);
    clearInterval(poke);
    socket.destroy();
  }, 30_000);
});

test("after every hostile connection, official clients publish and receive as usual", async () => {
  const ps = emu.client();
  const sub = `${unique("raw-sub")}`;
  await ps.topic(topic).createSubscription(sub);
  const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => ps.topic(topic).publishMessage({ data: Buffer.from(`m${i}`) })));
  const got = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    const s = ps.subscription(sub);
    const t = setTimeout(() => reject(new Error(`received ${got.size} of ${ids.length}`)), 10_000);
    s.on("message", (m) => {
      m.ack();
      got.add(m.id);
      if (got.size === ids.length) {
        clearTimeout(t);
        void s.close().then(resolve);
      }
    });
    s.on("error", reject);
  });
  expect([...got].sort()).toEqual([...ids].sort());
});

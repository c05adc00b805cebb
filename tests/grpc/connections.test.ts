/**
 * Connections on the shared port: a connection that never finishes its HTTP/2 preface or its
 * HTTP headers is closed after the handshake timeout; a preface split across TCP segments still
 * reaches gRPC; an idle but healthy gRPC stream is never cut.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as net from "node:net";
import * as grpc from "@grpc/grpc-js";
import { startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { grpcClients, statusOf } from "../helpers/raw-grpc.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";
import { topicAndSub } from "../helpers/client-suite.ts";
import { collectTexts } from "../helpers/receive.ts";

const TIMEOUT = 300;
const MAGIC = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const EMPTY_SETTINGS = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);

forEachGrpcServer((grpcServer) => {
  let emu: TestEmulator;

  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer, handshakeTimeoutMs: TIMEOUT });
  });
  afterAll(() => emu.close());

  /** Connects, runs `script` with the socket, and resolves with what came back and when the server closed it. */
  function connection(script: (s: net.Socket) => void, boundMs = 5000): Promise<{ closedAfterMs: number | null; received: string }> {
    return new Promise((resolve) => {
      const t0 = Date.now();
      let received = "";
      const s = net.connect(emu.port, "127.0.0.1", () => script(s));
      s.setNoDelay(true);
      s.on("data", (d) => (received += d.toString("latin1")));
      s.on("error", () => {});
      const bound = setTimeout(() => (s.destroy(), resolve({ closedAfterMs: null, received })), boundMs);
      s.on("close", () => (clearTimeout(bound), resolve({ closedAfterMs: Date.now() - t0, received })));
    });
  }

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  describe("handshake timeout", () => {
    test("a connection that sends nothing is closed", async () => {
      const r = await connection(() => {});
      expect(r.closedAfterMs).not.toBeNull();
      expect(r.closedAfterMs!).toBeGreaterThanOrEqual(TIMEOUT - 50);
    });

    test("a half-sent HTTP/2 preface is closed", async () => {
      const r = await connection((s) => s.write(MAGIC.slice(0, 16)));
      expect(r.closedAfterMs).not.toBeNull();
    });

    test("the magic without the SETTINGS frame is closed", async () => {
      const r = await connection((s) => s.write(MAGIC));
      expect(r.closedAfterMs).not.toBeNull();
    });

    test("HTTP headers sent too slowly are closed before any answer", async () => {
      const r = await connection(async (s) => {
        s.write("GET /health HTTP/1.1\r\nHost: x\r\n");
        for (let i = 0; i < 20 && !s.destroyed; i++) {
          s.write("X-Slow: 1\r\n");
          await pause(50);
        }
      });
      expect(r.closedAfterMs).not.toBeNull();
      expect(r.closedAfterMs!).toBeLessThan(20 * 50);
      expect(r.received).toBe("");
    });

    test("a keep-alive HTTP connection is answered, then closed when the next request does not come", async () => {
      const r = await connection((s) => s.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n"));
      expect(r.received).toContain("200 OK");
      expect(r.closedAfterMs).not.toBeNull();
    });
  });

  describe("protocol sniffing", () => {
    test("the magic followed by anything but a SETTINGS frame is closed at once", async () => {
      const windowUpdate = Buffer.from([0, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
      const r = await connection((s) => s.write(Buffer.concat([Buffer.from(MAGIC, "latin1"), windowUpdate])));
      expect(r.closedAfterMs).not.toBeNull();
      expect(r.closedAfterMs!).toBeLessThan(TIMEOUT);
      expect(r.received).toBe("");
    });

    test("a preface split across TCP segments is still HTTP/2 (the server answers with SETTINGS)", async () => {
      const r = await connection(async (s) => {
        for (const part of [MAGIC.slice(0, 1), MAGIC.slice(1, 5), MAGIC.slice(5, 20), MAGIC.slice(20)]) {
          s.write(part, "latin1");
          await pause(30);
        }
        s.write(EMPTY_SETTINGS.subarray(0, 4));
        await pause(30);
        s.write(EMPTY_SETTINGS.subarray(4));
        await pause(200);
        s.destroy();
      });
      // An HTTP/2 frame header: 3 bytes length, then type 4 (SETTINGS); HTTP/1 would answer "HTTP/1.1 400".
      expect(r.received.startsWith("HTTP/")).toBe(false);
      expect(r.received.charCodeAt(3)).toBe(4);
    });

    test("a real gRPC client whose first bytes arrive one segment at a time is served", async () => {
      // A proxy that forwards the client's first flight (preface and SETTINGS) one byte a write, then pipes.
      const proxy = net.createServer((client) => {
        const upstream = net.connect(emu.port, "127.0.0.1");
        upstream.setNoDelay(true);
        let state: "first" | "drip" | "pipe" = "first";
        let queued = Buffer.alloc(0);
        client.on("data", async (d: Buffer) => {
          if (state === "pipe") return void upstream.write(d);
          if (state === "drip") return void (queued = Buffer.concat([queued, d]));
          state = "drip";
          for (let i = 0; i < d.length; i++) {
            upstream.write(d.subarray(i, i + 1));
            await pause(2);
          }
          upstream.write(queued);
          state = "pipe";
        });
        upstream.on("data", (d) => client.write(d));
        const end = () => (client.destroy(), upstream.destroy());
        client.on("close", end).on("error", end);
        upstream.on("close", end).on("error", end);
      });
      await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", () => r()));
      const c = grpcClients(`127.0.0.1:${(proxy.address() as net.AddressInfo).port}`);
      try {
        const s = await statusOf(c.call(c.publisher, "GetTopic", { topic: `projects/p/topics/${unique("split")}` }));
        expect(s.code).toBe(grpc.status.NOT_FOUND);
      } finally {
        c.close();
        proxy.close();
      }
    });
  });

  describe("idle gRPC streams", () => {
    test("a StreamingPull idle for many handshake timeouts still delivers", async () => {
      const { topic, sub } = await topicAndSub(emu.client());
      const got = collectTexts(sub);
      sub.on("error", () => {});
      await pause(TIMEOUT * 6);
      await topic.publishMessage({ data: Buffer.from("still here") });
      await waitFor(() => got.length === 1, 5000, "delivery on the idle stream");
      expect(got).toEqual(["still here"]);
      await sub.close();
    });
  });
});

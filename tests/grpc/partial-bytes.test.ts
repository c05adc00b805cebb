/**
 * What partly received messages may hold on our gRPC servers (raw and lean), all calls together: a quarter of
 * --max-memory and always room for one 64 MiB message. With --max-memory 16M that is 64 MiB: one
 * stream holding 33 MiB of a message and a second sending 33 MiB of another take it past, and the
 * second is answered RESOURCE_EXHAUSTED while the first goes on. A raw HTTP/2 client, on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

const MiB = 2 ** 20;

/** A Publish whose header announces `announced` bytes, of which `sent` are written; never ended. */
function partialPublish(session: http2.ClientHttp2Session, announced: number, sent: number) {
  const req = session.request({ ":method": "POST", ":path": "/google.pubsub.v1.Publisher/Publish", "content-type": "application/grpc", te: "trailers" });
  req.on("error", () => {});
  const header = Buffer.alloc(5);
  header.writeUInt32BE(announced, 1);
  // The status comes in the trailers, or in the headers of a trailers-only answer; the stream
  // itself stays half-open while this client has not ended its side.
  const answer = new Promise<{ code: number; message: string }>((resolve) => {
    const read = (h: http2.IncomingHttpHeaders) => {
      const s = h["grpc-status"];
      if (s !== undefined) resolve({ code: Number(s), message: decodeURIComponent(String(h["grpc-message"] ?? "")) });
    };
    req.on("response", read);
    req.on("trailers", read);
  });
  const written = new Promise<void>((resolve) => req.write(Buffer.concat([header, Buffer.alloc(sent, 7)]), () => resolve()));
  return { req, answer, written };
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms))]);

forEachGrpcServer((server) => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer: server, maxMemory: 16 * MiB });
  });
  afterAll(() => emu.close());

  test("past the limit the call that would go over is RESOURCE_EXHAUSTED; the other keeps its bytes and is answered when it ends", async () => {
    const session = http2.connect(`http://${emu.endpoint}`);
    session.on("error", () => {});
    try {
      const first = partialPublish(session, 40 * MiB, 33 * MiB);
      await within(first.written, 20_000);
      await Bun.sleep(200); // the server has read it
      const second = partialPublish(session, 40 * MiB, 33 * MiB);
      const refused = await within(second.answer, 20_000);
      expect(refused.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(refused.message).toContain("partly received messages");
      // The first finishes its message: it is decoded and answered (not refused for its size).
      first.req.end(Buffer.alloc(7 * MiB, 7));
      const answered = await within(first.answer, 20_000);
      expect(answered.message).not.toContain("partly received messages");
    } finally {
      session.destroy();
    }
  }, 60_000);
}, ["raw", "lean"]);

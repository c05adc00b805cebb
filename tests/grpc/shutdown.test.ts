/**
 * Shutdown: open streams and waiting Pulls end with UNAVAILABLE (what clients retry on, as after
 * a restart), calls in flight are answered rather than cancelled, and stop() is bounded.
 */
import { describe, expect, test } from "bun:test";
import * as grpc from "@grpc/grpc-js";
import { startTestEmulator, unique } from "../helpers/emulator.ts";
import { grpcClients, statusOf, streamStatus } from "../helpers/raw-grpc.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

forEachGrpcServer((grpcServer) => {
  async function withSubscription() {
    const emu = await startTestEmulator({ grpcServer });
    const c = grpcClients(emu.endpoint);
    const topic = `projects/p/topics/${unique("t")}`;
    const subscription = `projects/p/subscriptions/${unique("s")}`;
    await c.call(c.publisher, "CreateTopic", { name: topic });
    await c.call(c.subscriber, "CreateSubscription", { name: subscription, topic });
    return { emu, c, topic, subscription };
  }

  describe("shutdown", () => {
    test("an open StreamingPull ends with UNAVAILABLE, and stop() returns promptly", async () => {
      const { emu, c, subscription } = await withSubscription();
      const stream = streamStatus(c.subscriber, [{ subscription, streamAckDeadlineSeconds: 10 }], 10_000);
      await new Promise((r) => setTimeout(r, 100));
      const t0 = Date.now();
      await emu.stop();
      expect(Date.now() - t0).toBeLessThan(5000);
      expect((await stream).code).toBe(grpc.status.UNAVAILABLE);
      c.close();
    });

    test("a Pull waiting for messages ends with UNAVAILABLE", async () => {
      const { emu, c, subscription } = await withSubscription();
      const pull = statusOf(c.call(c.subscriber, "Pull", { subscription, maxMessages: 10 }));
      await new Promise((r) => setTimeout(r, 100));
      await emu.stop();
      const s = await pull;
      expect(s.code).toBe(grpc.status.UNAVAILABLE);
      expect(s.details).toContain("shutting down");
      c.close();
    });

    test("publishes racing the shutdown are answered OK or UNAVAILABLE, never cancelled", async () => {
      const { emu, c, topic } = await withSubscription();
      const data = Buffer.alloc(256 * 1024, 1);
      const calls = Array.from({ length: 20 }, () => statusOf(c.call(c.publisher, "Publish", { topic, messages: [{ data }] })));
      await calls[0];
      await emu.stop();
      const codes = new Set((await Promise.all(calls)).map((s) => s.code));
      expect(codes.has(grpc.status.OK)).toBe(true);
      for (const code of codes) expect([grpc.status.OK, grpc.status.UNAVAILABLE]).toContain(code);
      c.close();
    });

    test("stop() is bounded even when a client keeps its connection open", async () => {
      const { emu, c, topic } = await withSubscription();
      await c.call(c.publisher, "GetTopic", { topic });
      const t0 = Date.now();
      await emu.stop();
      expect(Date.now() - t0).toBeLessThan(6000);
      c.close();
    });
  });
});

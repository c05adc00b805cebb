/**
 * How the raw server gates causal delivery (src/grpc/call/answer-gate.ts): a gRPC Publish's
 * messages are shown once the publisher's connection ACKed a PING sent after the answer, without
 * waiting for --causal-delay-ms; a REST Publish, whose answer the HTTP/2 layer did not send,
 * still waits that timer. The timer is set far above the gate's cap to tell the two apart.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { openStream, rawClients, sleep, subPath, topicPath, type RawClients } from "../helpers/raw-clients.ts";
import { waitFor } from "../helpers/wait.ts";

const FALLBACK_MS = 3000;
let emu: TestEmulator;
let raw: RawClients;

beforeAll(async () => {
  emu = await startTestEmulator({ grpcServer: "raw", causalDelayMs: FALLBACK_MS });
  raw = rawClients(emu);
});
afterAll(async () => {
  await raw.close();
  await emu.close();
});

test("gRPC publishes are shown on the publisher's PING ACK; REST ones after the timer", async () => {
  const topic = topicPath();
  const subscription = subPath();
  await raw.publisher.createTopic({ name: topic });
  await raw.subscriber.createSubscription({ name: subscription, topic });
  const stream = openStream(raw.subscriber, { subscription, streamAckDeadlineSeconds: 60 });
  try {
    await sleep(100);
    const arrival = (n: number) => waitFor(() => stream.received.length >= n, FALLBACK_MS * 3, `message ${n}`).then(() => performance.now());

    for (let i = 1; i <= 3; i++) {
      const t0 = performance.now();
      await raw.publisher.publish({ topic, messages: [{ data: Buffer.from(`g${i}`) }] });
      // Shown well before the timer would have run: the ACK (or at worst the 100 ms cap) ran it.
      expect((await arrival(i)) - t0).toBeLessThan(FALLBACK_MS);
    }

    const t0 = performance.now();
    const res = await fetch(`http://${emu.endpoint}/v1/${topic}:publish`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ data: Buffer.from("rest").toString("base64") }] }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    // Timers never fire early: not before FALLBACK_MS after the request was sent.
    expect((await arrival(4)) - t0).toBeGreaterThanOrEqual(FALLBACK_MS - 5);
    expect(stream.received.map((m) => m.data.toString())).toEqual(["g1", "g2", "g3", "rest"]);
  } finally {
    stream.cancel();
  }
}, 30_000);

/**
 * The official client's generated v1 (GAPIC) clients pointed at a test emulator, for the calls the
 * high-level PubSub API hides: unary Pull, raw StreamingPull, multi-key Publish. Plus small
 * helpers for bounded waits and gRPC status codes.
 */
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import type { TestEmulator } from "./emulator.ts";
import { PROJECT } from "./project.ts";
import { waitFor } from "./wait.ts";

export { subPath, topicPath } from "./project.ts";

export interface RawClients {
  publisher: v1.PublisherClient;
  subscriber: v1.SubscriberClient;
  close(): Promise<void>;
}

/** A v1 PublisherClient and SubscriberClient on an insecure channel to `emu`. */
export function rawClients(emu: Pick<TestEmulator, "port">): RawClients {
  const opts = {
    apiEndpoint: "127.0.0.1",
    servicePath: "127.0.0.1",
    port: emu.port,
    sslCreds: grpc.credentials.createInsecure(),
    projectId: PROJECT,
  };
  const publisher = new v1.PublisherClient(opts);
  const subscriber = new v1.SubscriberClient(opts);
  return {
    publisher,
    subscriber,
    async close() {
      await Promise.all([publisher.close().catch(() => {}), subscriber.close().catch(() => {})]);
    },
  };
}

/** The fields of a pulled message the tests read. */
type Received = { ackId?: string | null; message?: { data?: Uint8Array | string | null; attributes?: Record<string, string> | null } | null }[];

/**
 * Unary pulls (returnImmediately) and acks until `n` messages came or `ms` passed; what came, in
 * order. It never throws on time: the caller's assertion on the result says what was missing.
 */
export async function pullUntil(subscriber: v1.SubscriberClient, subscription: string, n: number, ms = 5000, maxMessages = 100): Promise<Received> {
  const out: Received = [];
  await waitFor(
    async () => {
      const [res] = await subscriber.pull({ subscription, maxMessages, returnImmediately: true });
      const got = res.receivedMessages ?? [];
      if (got.length) await subscriber.acknowledge({ subscription, ackIds: got.map((r) => r.ackId!) });
      out.push(...got);
      return out.length >= n;
    },
    ms,
    `${n} messages`,
    20,
  ).catch(() => {});
  return out;
}

/** The gRPC status code `p` rejects with; fails the test if it resolves. */
export async function grpcCode(p: Promise<unknown> | (() => Promise<unknown>)): Promise<number> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== "number") throw new Error(`rejected without a numeric gRPC code: ${String(e)}`);
    return code;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** Rejects with a clear message when `p` takes longer than `ms`. */
export function within<T>(p: Promise<T>, ms: number, what = "operation"): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms` (test-side pause; the emulator never sleeps). */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A StreamingPull response as the v1 client decodes it. */
export interface PulledMessage {
  ackId: string;
  messageId: string;
  data: Buffer;
  orderingKey: string;
  deliveryAttempt: number;
}

/** A raw StreamingPull stream that records every delivery; `received` grows as responses arrive. */
export interface RawStream {
  received: PulledMessage[];
  responses: number;
  error: { code?: number } | null;
  write(req: Record<string, unknown>): void;
  cancel(): void;
  /** Half-closes: the client sends no more. */
  end(): void;
}

export function openStream(subscriber: v1.SubscriberClient, first: Record<string, unknown>): RawStream {
  const call = subscriber.streamingPull();
  const s: RawStream = {
    received: [],
    responses: 0,
    error: null,
    write: (req) => call.write(req),
    cancel: () => call.cancel(),
    end: () => call.end(),
  };
  call.on("data", (res: { receivedMessages?: Array<Record<string, any>> }) => {
    s.responses++;
    for (const r of res.receivedMessages ?? []) {
      s.received.push({
        ackId: r.ackId,
        messageId: r.message.messageId,
        data: Buffer.from(r.message.data ?? []),
        orderingKey: r.message.orderingKey ?? "",
        deliveryAttempt: r.deliveryAttempt ?? 0,
      });
    }
  });
  call.on("error", (e: { code?: number }) => {
    s.error = e;
  });
  call.write(first);
  return s;
}

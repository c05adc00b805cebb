/** One emulator per test file, with an official client, raw GAPIC clients and a topic+sub maker. */
import { afterAll, beforeAll } from "bun:test";
import type { PubSub, Subscription, Topic } from "@google-cloud/pubsub";
import type { Config } from "../../src/runtime/config.ts";
import { startTestEmulator, unique, type TestEmulator } from "./emulator.ts";
import { rawClients, type RawClients } from "./raw-clients.ts";

export interface ClientSuite {
  emu: TestEmulator;
  ps: PubSub;
  raw: RawClients;
  /** A fresh topic with one fresh subscription created with `options`. */
  topicAndSub(options?: Record<string, unknown>): Promise<{ topic: Topic; sub: Subscription }>;
}

/** `config` starts the emulator with other settings, e.g. `{ clock: "manual" }` for deadline tests. */
export function clientSuite(config: Partial<Config> = {}): ClientSuite {
  const s = {
    topicAndSub: (options: Record<string, unknown> = {}) => topicAndSub(s.ps, options),
  } as ClientSuite;
  beforeAll(async () => {
    s.emu = await startTestEmulator(config);
    s.ps = s.emu.client();
    s.raw = rawClients(s.emu);
  });
  afterAll(async () => {
    await s.raw.close();
    await s.emu.close();
  });
  return s;
}

/** A fresh topic of `ps` with one fresh subscription created with `options`. */
export async function topicAndSub(ps: PubSub, options: Record<string, unknown> = {}): Promise<{ topic: Topic; sub: Subscription }> {
  const [topic] = await ps.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), options);
  return { topic, sub };
}

/**
 * A fresh topic whose fresh subscription (created with `options`) dead-letters after 5 delivery
 * attempts to a fresh topic, `dlq`, that has a subscription of its own, `dlqSub`.
 */
export async function withDeadLetters(ps: PubSub, options: Record<string, unknown> = {}) {
  const [dlq] = await ps.createTopic(unique("dlq"));
  const [dlqSub] = await dlq.createSubscription(unique("dlq-s"));
  const { topic, sub } = await topicAndSub(ps, { ...options, deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 5 } });
  return { topic, sub, dlq, dlqSub };
}

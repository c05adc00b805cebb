/** Import-topic test helpers: a topic turned into an import topic after its subscription exists, and a bounded pull. */
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "bun:test";
import type { Message, PubSub, Subscription } from "@google-cloud/pubsub";
import { unique, waitFor } from "../helpers/emulator.ts";
import { pullUntil, rawClients, type RawClients } from "../helpers/raw-clients.ts";

/** A topic and a pull subscription on it, then the ingestion settings (so nothing ingested is missed). */
export async function importTopic(pubsub: PubSub, settings: Record<string, unknown>) {
  const [topic] = await pubsub.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"));
  await topic.setMetadata({ ingestionDataSourceSettings: settings });
  return { topic, sub };
}

/** An import topic whose subscription orders by key, its messages received (and acked) by the high-level subscriber as they come. */
export async function orderedImport(pubsub: PubSub, settings: Record<string, unknown>): Promise<{ topic: string; sub: Subscription; got: Message[] }> {
  const [topic] = await pubsub.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { enableMessageOrdering: true });
  await topic.setMetadata({ ingestionDataSourceSettings: settings });
  const got: Message[] = [];
  sub.on("message", (m: Message) => {
    got.push(m);
    m.ack();
  });
  return { topic: topic.name, sub, got };
}

/**
 * Receives on an orderedImport's subscription: `first` messages, then `more()` adds records at the
 * source, then `total` in all and, 300 ms later, not one more. The subscription is closed after.
 */
export async function receiveAround({ sub, got }: { sub: Subscription; got: Message[] }, first: number, more: () => Promise<unknown>, total: number): Promise<void> {
  try {
    await waitFor(() => got.length >= first, 15_000, `the first ${first} records`);
    await more();
    await waitFor(() => got.length >= total, 15_000, `${total - first} records more`);
    await Bun.sleep(300);
  } finally {
    await sub.close();
  }
  expect(got.length).toBe(total);
}

/** Runs `fn` with raw clients to `emu`, closed after. */
export async function withRaw<T>(emu: { port: number }, fn: (raw: RawClients) => Promise<T>): Promise<T> {
  const raw = rawClients(emu);
  try {
    return await fn(raw);
  } finally {
    await raw.close();
  }
}

/** The import topic's state and its `field` source's state. */
export async function ingestionStates(pubsub: PubSub, topic: string, field: "confluentCloud" | "awsMsk" | "awsKinesis"): Promise<{ topic: string; source: string }> {
  const [t] = await pubsub.topic(topic).getMetadata();
  const source = (t.ingestionDataSourceSettings as Record<string, { state?: string }> | undefined)?.[field]?.state;
  return { topic: String(t.state), source: String(source) };
}

/** Resolves once the `field` source of the import topic is in state `source`; rejects with the last states after `ms`. */
export async function waitSourceState(pubsub: PubSub, topic: string, field: "confluentCloud" | "awsMsk" | "awsKinesis", source: string, ms = 10_000): Promise<void> {
  let last = { topic: "", source: "" };
  await waitFor(async () => (last = await ingestionStates(pubsub, topic, field)).source === source, ms, () => `source state ${source}, still ${JSON.stringify(last)}`, 50);
}

export interface Pulled {
  data: string;
  attributes: Record<string, string>;
}

/** Pulls (and acks) until `n` messages came or `ms` passed; then one more immediate pull must find nothing new. */
export async function pullN(raw: RawClients, subscription: string, n: number, ms = 5000): Promise<Pulled[]> {
  const got = await pullUntil(raw.subscriber, subscription, n, ms, 1000);
  return got.map((r) => ({ data: Buffer.from(r.message!.data as Uint8Array).toString(), attributes: { ...(r.message!.attributes ?? {}) } }));
}

export async function pullNothing(raw: RawClients, subscription: string): Promise<number> {
  await Bun.sleep(100);
  const [res] = await raw.subscriber.pull({ subscription, maxMessages: 1000, returnImmediately: true });
  return (res.receivedMessages ?? []).length;
}

/** Writes an object into a bucket folder the way objects should appear: whole, then renamed. */
export function putObject(dir: string, bucket: string, name: string, body: string | Uint8Array): void {
  const tmp = join(dir, `.tmp-${unique("o")}`);
  writeFileSync(tmp, body);
  renameSync(tmp, join(dir, bucket, name));
}

export { rawClients };

/** Helpers for core tests: a broker on a manual clock, unique names, error capture, a fake stream sink. */
import { expect } from "bun:test";
import { Broker, type BrokerOptions } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { PubSubError, type ErrorCode } from "../../src/core/errors.ts";
import type { DeliveryBatch } from "../../src/core/delivery/delivery-batch.ts";
import type { Delivery, MessageInput } from "../../src/core/message.ts";
import type { SubscriptionResource, TopicResource } from "../../src/core/resources.ts";
import { StreamSession, type StreamRequest, type StreamSink } from "../../src/core/delivery/stream-session.ts";
import { storeKind } from "./stores.ts";
import { PROJECT } from "./project.ts";

export const SEC = 1000;
export { PROJECT } from "./project.ts";

let counter = 0;
/** An id unique in this process, valid for topics and subscriptions. */
export const uid = (prefix: string) => `${prefix}-${++counter}`;
export const topicName = (id = uid("topic"), project = PROJECT) => `projects/${project}/topics/${id}`;
export const subName = (id = uid("sub"), project = PROJECT) => `projects/${project}/subscriptions/${id}`;

export interface CoreFixture {
  clock: ManualClock;
  broker: Broker;
}

/** A fresh broker on a manual clock and the current store kind; Pull waits 1 s unless told otherwise. */
export function setup(o: Partial<BrokerOptions> = {}): CoreFixture {
  const clock = new ManualClock();
  const broker = new Broker({ pullWaitMs: 1000, ...o, store: o.store ?? storeKind().forBroker(), clock });
  return { clock, broker };
}

export function makeTopic(broker: Broker, extra: Partial<TopicResource> = {}): string {
  const name = extra.name ?? topicName();
  broker.topics.create({ labels: {}, ...extra, name } as TopicResource);
  return name;
}

export function makeSub(broker: Broker, topic: string, extra: Partial<SubscriptionResource> = {}): string {
  const name = extra.name ?? subName();
  broker.subscriptions.create({ ...extra, name, topic } as SubscriptionResource);
  return name;
}

/** A topic with one subscription. */
export function topicAndSub(broker: Broker, subExtra: Partial<SubscriptionResource> = {}) {
  const topic = makeTopic(broker);
  const sub = makeSub(broker, topic, subExtra);
  return { topic, sub };
}

/** A topic with a subscription (created with `subExtra`) that dead-letters after 5 attempts to `dlq`, a topic with a subscription of its own, `dlqSub`. */
export function deadLettering(broker: Broker, subExtra: Partial<SubscriptionResource> = {}) {
  const dlq = makeTopic(broker);
  const dlqSub = makeSub(broker, dlq);
  return { dlq, dlqSub, ...topicAndSub(broker, { ...subExtra, deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 } }) };
}

/** A topic with `n` subscriptions. */
export function topicWithSubs(broker: Broker, n: number) {
  const topic = makeTopic(broker);
  return { topic, subs: Array.from({ length: n }, () => makeSub(broker, topic)) };
}

/** A broker on a manual clock with one topic and one subscription on it, created with `subExtra`. */
export function setupWithSub(subExtra: Partial<SubscriptionResource> = {}) {
  const f = setup();
  return { ...f, ...topicAndSub(f.broker, subExtra) };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const bytes = (s: string) => encoder.encode(s);
export const text = (d: Delivery) => decoder.decode(d.message.data);
export const texts = (ds: readonly Delivery[]) => ds.map(text);
export const msg = (data: string, extra: Omit<MessageInput, "data"> = {}): MessageInput => ({ data: bytes(data), ...extra });

export function publishTexts(broker: Broker, topic: string, datas: string[], orderingKey?: string): string[] {
  return broker.topics.publish(topic, datas.map((d) => msg(d, orderingKey ? { orderingKey } : {})));
}

/** "a" published and pulled, then pulled again once its 10 s ack deadline passed: both pulls. */
export async function pulledAndRedelivered({ broker, clock, topic, sub }: CoreFixture & { topic: string; sub: string }): Promise<[Delivery[], Delivery[]]> {
  publishTexts(broker, topic, ["a"]);
  const first = await pullNow(broker, sub);
  clock.advance(11 * SEC);
  return [first, await pullNow(broker, sub)];
}

/** A stream on `sub` recording what it is sent. */
export function openStream(broker: Broker, sub: string, extra: Partial<StreamRequest> = {}) {
  const sink = new FakeSink();
  const session = new StreamSession(broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10, ...extra }, sink);
  return { sink, session };
}

/** A Pull with return_immediately. */
export const pullNow = (broker: Broker, sub: string, max = 100) => broker.subscriptions.pull(sub, max, true).result;

export const nack = (broker: Broker, sub: string, ds: readonly Delivery[]) =>
  broker.subscriptions.modifyAckDeadline(sub, ds.map((d) => d.ackId), 0);
export const ack = (broker: Broker, sub: string, ds: readonly Delivery[]) =>
  broker.subscriptions.acknowledge(sub, ds.map((d) => d.ackId));

/** Runs `fn`, which must throw a PubSubError; returns it. */
export function caught(fn: () => unknown): PubSubError {
  try {
    fn();
  } catch (e) {
    if (e instanceof PubSubError) return e;
    throw new Error(`expected a PubSubError, got ${String(e)}`);
  }
  throw new Error("expected a PubSubError, but nothing was thrown");
}

/** `fn` must throw a PubSubError with `code` whose message contains `mention` (two expects, as written out). */
export function expectRefused(fn: () => unknown, code: ErrorCode, mention: string): PubSubError {
  const e = caught(fn);
  expect(e.code).toBe(code);
  expect(e.message).toContain(mention);
  return e;
}

export async function caughtAsync(p: Promise<unknown>): Promise<PubSubError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PubSubError) return e;
    throw new Error(`expected a PubSubError, got ${String(e)}`);
  }
  throw new Error("expected a PubSubError, but the promise resolved");
}

/** Lets already-settled promise callbacks run (no timers, no sleeping). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** Tracks whether a promise has settled, for assertions on the manual clock. */
export function track<T>(p: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  p.then(
    (v) => Object.assign(state, { settled: true, value: v }),
    (e) => Object.assign(state, { settled: true, error: e }),
  );
  return state;
}

/** A StreamSink that records what a StreamSession writes; `writable = false` simulates backpressure. */
export class FakeSink implements StreamSink {
  sends: Delivery[][] = [];
  /** Responses that carried exactly-once confirmations. */
  confirmations: DeliveryBatch[] = [];
  failure: PubSubError | null = null;
  writable = true;
  /** What the transport says it can send now (StreamSink.room); absent: it does not say. */
  room?: () => number;

  send(batch: DeliveryBatch): boolean {
    if (batch.ackConfirmation || batch.modackConfirmation) this.confirmations.push(batch);
    else this.sends.push(batch.deliveries);
    return this.writable;
  }

  fail(error: PubSubError): void {
    this.failure = error;
  }

  /** Every delivery written, in order. */
  get deliveries(): Delivery[] {
    return this.sends.flat();
  }

  get keepalives(): number {
    return this.sends.filter((s) => s.length === 0).length;
  }
}

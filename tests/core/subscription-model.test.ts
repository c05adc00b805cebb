/**
 * Property tests of one subscription against a simple reference model, on the manual clock:
 * random publishes, unary pulls, streams opening and disconnecting (with flow control; what a
 * client never modacked runs out soon after its stream ends), acks, nacks, deadline changes and
 * clock jumps (expiries, retry backoff). Whatever the sequence:
 * - nothing is lost: after the run, draining the subscription acks every published message;
 * - nothing acked is delivered again;
 * - per ordering key (when ordering is on), a message is delivered only after every earlier one
 *   of its key is acked, or comes before it in the same response; and once a message is
 *   delivered again, the earlier deliveries of the later messages of its key no longer ack
 *   (they come again, after it).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { DeliveryBatch } from "../../src/core/delivery/delivery-batch.ts";
import type { Delivery } from "../../src/core/message.ts";
import type { SubscriptionResource } from "../../src/core/resources.ts";
import { STREAM_END_GRACE_MS, StreamSession } from "../../src/core/delivery/stream-session.ts";
import { SEC, bytes, makeSub, makeTopic } from "../helpers/core.ts";

const SEED = Number(process.env.PROPERTY_SEED ?? 20261122);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 1000);
const KEYS = ["", "a", "b"];

interface Held {
  ackId: string;
  id: string;
  /** When the lease ends, as the model computes it (delivery or last modack + seconds). */
  deadline: number;
  /** The lease is over (expired, or an earlier message of its key went back): its ack must not count. */
  stale?: boolean;
  /** The stream that delivered it (none for a unary pull). */
  stream?: object;
  /** The client modacked it since delivery. */
  touched?: boolean;
}

type Action =
  | { t: "publish"; count: number; key: string }
  | { t: "pull"; max: number }
  | { t: "open"; maxOutstanding: number }
  | { t: "disconnect"; stream: number }
  | { t: "ack" | "nack"; pick: number[] }
  | { t: "modack"; pick: number[]; seconds: number }
  | { t: "advance"; ms: number };

const pick = fc.array(fc.nat(50), { minLength: 1, maxLength: 6 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant("publish" as const), count: fc.integer({ min: 1, max: 4 }), key: fc.constantFrom(...KEYS) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("pull" as const), max: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("open" as const), maxOutstanding: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("disconnect" as const), stream: fc.nat(5) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant("ack" as const), pick }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("nack" as const), pick }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("modack" as const), pick, seconds: fc.integer({ min: 1, max: 60 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 25 * SEC }) }) },
);
const options = fc.record({
  ordered: fc.boolean(),
  backoffSeconds: fc.constantFrom(0, 0, 5, 20),
});

/**
 * The reference model: what was published and acked, and the leases the clients hold with the
 * deadline each should have. It predicts which acks and modacks must take effect.
 */
class Model {
  readonly keyOf = new Map<string, string>();
  readonly order = new Map<string, string[]>();
  readonly acked = new Set<string>();
  held: Held[] = [];
  deliveries = 0;

  constructor(private ordered: boolean) {}

  published(ids: string[], key: string): void {
    for (const id of ids) {
      this.keyOf.set(id, key);
      if (key) (this.order.get(key) ?? this.order.set(key, []).get(key)!).push(id);
    }
  }

  /** Checks one response against the properties, then lets the client hold it. */
  delivered(batch: readonly Delivery[], now: number, stream?: object): void {
    batch.forEach((d, i) => {
      const id = d.message.id;
      this.deliveries++;
      if (this.acked.has(id)) throw new Error(`message ${id} was delivered again after it was acked`);
      const key = this.keyOf.get(id)!;
      if (this.ordered && key) {
        const earlier = this.order.get(key)!.slice(0, this.order.get(key)!.indexOf(id));
        const sameBatch = new Set(batch.slice(0, i).map((x) => x.message.id));
        const missing = earlier.filter((e) => !this.acked.has(e) && !sameBatch.has(e));
        if (missing.length) throw new Error(`message ${id} of key ${key} delivered before ${missing.join(", ")} was acked`);
      }
      this.held.push({ ackId: d.ackId, id, deadline: now + 10 * SEC, stream });
    });
  }

  /**
   * A lease ends (nack or expiry): with ordering, every later lease of its key ends with it —
   * those the clients hold, and those in the request being applied (`inFlight`).
   */
  ended(h: Held, inFlight: Held[] = []): void {
    h.stale = true;
    const key = this.keyOf.get(h.id)!;
    if (!this.ordered || !key) return;
    const seq = this.order.get(key)!;
    for (const x of [...this.held, ...inFlight]) if (this.keyOf.get(x.id) === key && seq.indexOf(x.id) > seq.indexOf(h.id)) x.stale = true;
  }

  /** A stream ended: what it delivered and the client never modacked runs out within the grace. */
  streamEnded(stream: object, now: number): void {
    for (const h of this.held) if (h.stream === stream && !h.touched && !h.stale) h.deadline = Math.min(h.deadline, now + STREAM_END_GRACE_MS);
  }

  /** The earliest deadline of a live lease. */
  nextDeadline(): number {
    let next = Infinity;
    for (const h of this.held) if (!h.stale) next = Math.min(next, h.deadline);
    return next;
  }

  /** Leases whose deadline is `now` are over (before the server's expiry redelivers them). */
  expire(now: number): void {
    for (const h of this.held) if (!h.stale && h.deadline <= now) this.ended(h);
  }

  /**
   * Applies an ack, nack or modack as the model predicts it — before the server call, since the
   * call itself may deliver (a nack redelivers, an ack frees a key) — then checks that the
   * server answered what was predicted: live leases take effect, ones that are over do not.
   */
  apply(what: "ack" | "nack" | "modack", ids: Held[], now: number, seconds: number, call: () => string[]): void {
    // In request order: a nack of a key's message ends the later leases of the key it carries.
    const live = new Set<Held>();
    for (const x of ids) {
      if (x.stale) continue;
      live.add(x);
      if (what === "ack") this.acked.add(x.id);
      else if (what === "nack") this.ended(x, ids);
      else {
        x.deadline = now + seconds * SEC;
        x.touched = true;
      }
    }
    const matched = new Set(call());
    for (const x of ids) {
      if (matched.has(x.ackId) !== live.has(x)) {
        throw new Error(`${what} of message ${x.id} ${live.has(x) ? "did not take effect on a live lease" : "took effect on a lease that is over"}`);
      }
    }
  }

  /** The held ack ids at the picked positions (taken out of `held`). */
  take(positions: number[]): Held[] {
    const out: Held[] = [];
    for (const p of positions) {
      if (this.held.length === 0) break;
      out.push(...this.held.splice(p % this.held.length, 1));
    }
    return out;
  }
}

async function run(o: { ordered: boolean; backoffSeconds: number }, actions: Action[]): Promise<void> {
  const clock = new ManualClock();
  const broker = new Broker({ clock, pullWaitMs: 1000 });
  const topic = makeTopic(broker);
  const extra: Partial<SubscriptionResource> = { enableMessageOrdering: o.ordered, ackDeadlineSeconds: 10 };
  if (o.backoffSeconds) extra.retryPolicy = { minimumBackoff: o.backoffSeconds * SEC, maximumBackoff: 60 * SEC };
  const sub = makeSub(broker, topic, extra);
  const model = new Model(o.ordered);
  const streams: StreamSession[] = [];
  const sinkOf = (tag: object) => ({ send: (b: DeliveryBatch) => (b.deliveries.length && model.delivered(b.deliveries, clock.now(), tag), true), fail: () => {} });
  const tags = new Map<StreamSession, object>();
  const disconnect = (s: StreamSession) => {
    s.close();
    model.streamEnded(tags.get(s)!, clock.now());
  };
  const pull = async (max: number) => model.delivered(await broker.subscriptions.pull(sub, max, true).result, clock.now());
  const ackIds = (ids: Held[]) => ids.map((x) => x.ackId);
  // The broker answers the ack ids that matched no lease; the model checks the ones that did.
  const matched = (ids: Held[], unmatched: readonly string[]) => ackIds(ids).filter((id) => !unmatched.includes(id));
  const ack = (ids: Held[]) => ids.length && model.apply("ack", ids, clock.now(), 0, () => matched(ids, broker.subscriptions.acknowledge(sub, ackIds(ids))));
  // Step the clock from deadline to deadline, so the model ends leases just before the server
  // does; a step is shorter than a lease, so one given inside a step cannot end inside it too.
  const advance = (ms: number) => {
    const target = clock.now() + ms;
    while (clock.now() < target) {
      const next = model.nextDeadline();
      const step = Math.min(target, next, clock.now() + 10 * SEC - 1);
      if (step === next) model.expire(next);
      clock.advance(step - clock.now());
    }
  };

  for (const a of actions) {
    switch (a.t) {
      case "publish":
        model.published(broker.topics.publish(topic, Array.from({ length: a.count }, () => ({ data: bytes("m"), orderingKey: a.key || undefined }))), a.key);
        break;
      case "pull":
        await pull(a.max);
        break;
      case "open":
        if (streams.length < 4) {
          const tag = {};
          const s = new StreamSession(broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10, maxOutstandingMessages: a.maxOutstanding }, sinkOf(tag));
          tags.set(s, tag);
          streams.push(s);
        }
        break;
      case "disconnect":
        if (streams.length) disconnect(streams.splice(a.stream % streams.length, 1)[0]);
        break;
      case "ack":
        ack(model.take(a.pick));
        break;
      case "nack": {
        const ids = model.take(a.pick);
        if (ids.length) model.apply("nack", ids, clock.now(), 0, () => matched(ids, broker.subscriptions.modifyAckDeadline(sub, ackIds(ids), 0)));
        break;
      }
      case "modack": {
        const ids = [...new Set(a.pick.map((p) => model.held[p % Math.max(1, model.held.length)]))].filter((x) => x);
        if (ids.length) model.apply("modack", ids, clock.now(), a.seconds, () => matched(ids, broker.subscriptions.modifyAckDeadline(sub, ackIds(ids), a.seconds)));
        break;
      }
      case "advance":
        advance(a.ms);
        break;
    }
  }

  // Drain: clients go away, leases and backoffs run out, and one puller acks everything.
  for (const s of streams) disconnect(s);
  model.held = [];
  for (let round = 0; round < 200 && model.acked.size < model.keyOf.size; round++) {
    advance(120 * SEC);
    await pull(100);
    ack(model.take(model.held.map((_, i) => i).reverse()));
  }
  const lost = [...model.keyOf.keys()].filter((id) => !model.acked.has(id));
  if (lost.length) throw new Error(`lost: ${lost.join(", ")}`);
}

describe("a subscription against the reference model", () => {
  test(`no loss, no redelivery after ack, per-key order (${RUNS} runs, seed ${SEED})`, async () => {
    await fc.assert(fc.asyncProperty(options, fc.array(action, { minLength: 5, maxLength: 80, size: "max" }), run), { seed: SEED, numRuns: RUNS });
  }, 60_000);

  test("the model catches a redelivery after ack, an out-of-order delivery, and an ack of an overtaken lease", () => {
    const m = new Model(true);
    m.published(["1", "2"], "k");
    const d = (id: string, n = 1): Delivery => ({ ackId: `a${id}.${n}`, deliveryAttempt: n, message: { id, seq: Number(id), data: bytes(""), attributes: {}, orderingKey: "k", publishTime: 0, size: 0 } });
    expect(() => m.delivered([d("2")], 0)).toThrow("before 1");
    const fresh = new Model(true);
    fresh.published(["1", "2"], "k");
    expect(() => fresh.delivered([d("1"), d("2")], 0)).not.toThrow();
    fresh.apply("nack", fresh.take([0]), 0, 0, () => ["a1.1"]);
    const overtaken = fresh.take([0]);
    expect(() => fresh.apply("ack", overtaken, 0, 0, () => ["a2.1"])).toThrow("lease that is over");
    fresh.delivered([d("1", 2)], 0);
    fresh.apply("ack", fresh.take([0]), 0, 0, () => ["a1.2"]);
    expect(() => fresh.delivered([d("1", 3)], 0)).toThrow("after it was acked");
    expect(() => fresh.apply("ack", [{ ackId: "x", id: "2", deadline: 10 }], 0, 0, () => [])).toThrow("live lease");
  });
});

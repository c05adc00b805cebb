// A measured message flow through the official client: one topic, N subscriptions.
// Each message carries attributes r (run tag), s (sequence), t (publish time, epoch ms,
// sub-ms precision); receivers check off sequences per subscription, so loss and
// duplication are counted, and e2e latency is receive time minus t.
import { PubSub, type Message, type Subscription, type Topic } from "@google-cloud/pubsub";
import type { PublishOptions } from "@google-cloud/pubsub/build/src/publisher";
import type { SubscriberOptions } from "@google-cloud/pubsub/build/src/subscriber";
import { Deliveries, Latencies, SeqSet, nowMs, sleep } from "./stats.ts";
import { Monitor, type Resources } from "./monitor.ts";
import { row, type Ctx, type Row } from "./report.ts";

export const PROJECT = "bench";
export const RUN_TAG = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
let seqName = 0;
export const uniqueName = (prefix: string) => `${prefix}-${RUN_TAG}-${seqName++}`;

/**
 * A client with its own connection (grpc-js would otherwise share one per target).
 * universeDomain is set so google-auth does not probe the GCE metadata server on the
 * first call (~90 ms per client here, and noise in the thundering herd).
 */
export function client(target: string, extra: Record<string, unknown> = {}): PubSub {
  return new PubSub({ projectId: PROJECT, apiEndpoint: target, emulatorMode: true, universeDomain: "googleapis.com",
    "grpc.use_local_subchannel_pool": 1, ...extra } as any);
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => { throw new Error(`${what}: timed out after ${ms} ms`); })]);
}

export interface FlowOptions {
  target: string; name: string; subs: number;
  publisher?: PublishOptions; subscriber?: SubscriberOptions;
  ordered?: boolean;
  /** false: create the subscriptions but attach no StreamingPull listener (unary Pull). */
  listen?: boolean;
  /** The subscriptions only keep what is published (nobody receives): windows and drain count publishes. */
  publishOnly?: boolean;
  /** message_transforms of the topic and of every subscription (the transforms scenario). */
  topicTransforms?: unknown[]; subTransforms?: unknown[];
  /** Called per first receipt (after latency is recorded); for ordering checks. */
  onFirst?: (m: Message, sub: number, seq: number) => void;
}

export interface Mark { t: number; received: number; rxBytes: number; acked: number; txBytes: number }

export class Flow {
  pubClient!: PubSub; subClient!: PubSub;
  topic!: Topic; subs: Subscription[] = [];
  subNames: string[] = [];
  deliveries: Deliveries[] = [];
  e2e = new Latencies(); pubLat = new Latencies();
  acked = new SeqSet();
  sent = 0; ackedCount = 0; pubErrors = 0; subErrors = 0;
  errors: Record<string, number> = {};
  txBytes = 0; rxBytes = 0; uniqueTotal = 0; pendingBytes = 0;
  /** Latencies are recorded only for sequences >= measureFrom (see startMeasuring). */
  measureFrom = 0;
  private waiter: { pred: () => boolean; resolve: (ok: boolean) => void } | null = null;

  private constructor(private o: FlowOptions) {}

  static async create(o: FlowOptions): Promise<Flow> {
    const f = new Flow(o);
    f.pubClient = client(o.target);
    f.subClient = o.subs > 0 ? client(o.target) : f.pubClient;
    const [topic] = await withTimeout(f.pubClient.createTopic(o.topicTransforms ? { name: o.name, messageTransforms: o.topicTransforms } as never : o.name), 15000, "createTopic");
    f.topic = f.pubClient.topic(topic.name, { ...o.publisher, messageOrdering: !!o.ordered });
    for (let i = 0; i < o.subs; i++) {
      const subName = `${o.name}-s${i}`;
      await withTimeout(f.pubClient.createSubscription(topic.name, subName, { enableMessageOrdering: !!o.ordered, ...(o.subTransforms ? { messageTransforms: o.subTransforms } : {}) } as never), 15000, "createSubscription");
      const d = new Deliveries();
      f.deliveries.push(d);
      f.subNames.push(`projects/${PROJECT}/subscriptions/${subName}`);
      if (o.listen === false) continue;
      const sub = f.subClient.subscription(subName, o.subscriber);
      sub.on("message", (m: Message) => f.onMessage(m, i));
      sub.on("error", (e: any) => { f.subErrors++; f.count(`sub:${e?.code ?? e?.message}`); });
      f.subs.push(sub);
    }
    return f;
  }

  private count(k: string) { this.errors[k] = (this.errors[k] ?? 0) + 1; }

  private onMessage(m: Message, i: number) {
    m.ack();
    if (this.receive(i, m.attributes, m.data.length)) this.o.onFirst?.(m, i, Number(m.attributes.s));
  }

  /** Records one delivery to subscription i; true if it is the first of its sequence. */
  receive(i: number, a: Record<string, string> | null | undefined, dataLen: number): boolean {
    const d = this.deliveries[i]!;
    if (a?.r !== RUN_TAG) { d.foreign++; return false; }
    const seq = Number(a.s);
    const first = d.mark(seq);
    if (first) {
      this.uniqueTotal++;
      this.rxBytes += dataLen;
      if (seq >= this.measureFrom) this.e2e.add(nowMs() - Number(a.t));
    }
    this.kick();
    return first;
  }

  private kick() {
    const w = this.waiter;
    if (w && w.pred()) { this.waiter = null; w.resolve(true); }
  }

  /** Resolves true when pred() holds (checked on every publish ack / receipt), false on timeout. */
  until(pred: () => boolean, timeoutMs: number): Promise<boolean> {
    if (pred()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => { if (this.waiter?.resolve === r) this.waiter = null; resolve(pred()); }, timeoutMs);
      const r = (ok: boolean) => { clearTimeout(t); resolve(ok); };
      this.waiter = { pred, resolve: r };
    });
  }

  /** Publishes one message; `t` defaults to now (pass the scheduled time when pacing). */
  publish(data: Buffer, t = nowMs(), orderingKey?: string, extra?: Record<string, string>): number {
    const seq = this.sent++;
    const attributes = { r: RUN_TAG, s: String(seq), t: String(t), ...extra };
    const rec = seq >= this.measureFrom;
    const t0 = performance.now();
    this.pendingBytes += data.length;
    this.topic.publishMessage({ data, attributes, orderingKey }).then(
      () => {
        this.acked.add(seq); this.ackedCount++; this.txBytes += data.length; this.pendingBytes -= data.length;
        if (rec) this.pubLat.add(performance.now() - t0);
        this.kick();
      },
      (e: any) => {
        this.pubErrors++; this.pendingBytes -= data.length; this.count(`pub:${e?.code ?? e?.message}`);
        if (orderingKey) this.topic.resumePublishing(orderingKey);
        this.kick();
      });
    return seq;
  }

  /** For publishers outside this flow (thundering herd): claim a sequence, report its ack. */
  claimSeq() { return this.sent++; }
  externalAcked(seq: number, bytes: number) { this.acked.add(seq); this.ackedCount++; this.txBytes += bytes; this.kick(); }
  externalFailed(code: string) { this.pubErrors++; this.count(`pub:${code}`); this.kick(); }
  attributes(seq: number, t = nowMs()) { return { r: RUN_TAG, s: String(seq), t: String(t) }; }

  /** Messages published but not yet resolved. */
  get pubOutstanding() { return this.sent - this.ackedCount - this.pubErrors; }
  /** Messages (per subscription, averaged) published but not yet received. */
  get e2eOutstanding() { return this.o.subs && !this.o.publishOnly ? this.sent - this.uniqueTotal / this.o.subs : 0; }

  /** Ends warm-up: latencies from here on only. */
  startMeasuring() {
    this.measureFrom = this.sent;
    this.e2e = new Latencies(); this.pubLat = new Latencies();
  }

  mark(): Mark {
    return { t: performance.now(), received: this.uniqueTotal, rxBytes: this.rxBytes, acked: this.ackedCount, txBytes: this.txBytes };
  }

  /** Closed loop: keep at most `window` messages outstanding (publish-side, or e2e when there are subscribers). */
  async closedLoop(o: { ms: number; window: number; windowBytes?: number; payload: (seq: number) => Buffer; key?: (seq: number) => string }) {
    const end = performance.now() + o.ms;
    const e2e = this.o.subs > 0 && !this.o.publishOnly;
    const maxBytes = o.windowBytes ?? Infinity;
    const room = () => (e2e ? this.e2eOutstanding : this.pubOutstanding) < o.window && this.pendingBytes < maxBytes;
    let n = 0;
    while (performance.now() < end) {
      if (!room()) { await this.until(room, 50); continue; }
      this.publish(o.payload(this.sent), undefined, o.key?.(this.sent));
      if (++n % 500 === 0) await sleep(0);
    }
  }

  /** Open loop at `rate` msg/s; t is the scheduled send time (no coordinated omission). */
  async paced(o: { ms: number; rate: number; payload: (seq: number) => Buffer; maxOutstanding?: number; key?: (seq: number) => string }): Promise<{ sent: number; stoppedEarly: boolean }> {
    const t0 = performance.now(), base = nowMs();
    let k = 0;
    const cap = o.maxOutstanding ?? Infinity;
    while (true) {
      const el = performance.now() - t0;
      if (el >= o.ms) break;
      const due = Math.min(Math.floor((el / 1000) * o.rate) + 1, Math.ceil((o.ms / 1000) * o.rate));
      while (k < due) {
        this.publish(o.payload(this.sent), base + (k * 1000) / o.rate, o.key?.(this.sent));
        k++;
      }
      if ((this.o.subs ? this.e2eOutstanding : this.pubOutstanding) > cap) return { sent: k, stoppedEarly: true };
      await sleep(1);
    }
    return { sent: k, stoppedEarly: false };
  }

  /** Waits until every acknowledged message reached every subscription, or no progress for idleMs. */
  async drain(idleMs = 5000, maxMs = 60000): Promise<boolean> {
    const end = performance.now() + maxMs;
    const done = () => this.pubOutstanding === 0 && (this.o.subs === 0 || this.o.publishOnly || this.uniqueTotal >= this.ackedCount * this.o.subs);
    let last = -1, lastT = performance.now();
    while (!done() && performance.now() < end) {
      const progress = this.uniqueTotal + this.ackedCount + this.pubErrors;
      if (progress !== last) { last = progress; lastT = performance.now(); }
      else if (performance.now() - lastT > idleMs) break;
      await this.until(done, 100);
    }
    return done();
  }

  /** Lost = acknowledged by the server but never delivered (summed over subscriptions). */
  losses() {
    let lost = 0, dup = 0, foreign = 0;
    for (const d of this.deliveries) { lost += d.lost(this.acked); dup += d.duplicates; foreign += d.foreign; }
    return { lost, dup, foreign };
  }

  async close() {
    await Promise.allSettled(this.subs.map((s) => withTimeout(s.close(), 10000, "subscription.close")));
    await Promise.allSettled([withTimeout(this.topic.flush(), 5000, "flush")]);
    await Promise.allSettled(this.subs.map((s) => withTimeout(s.delete(), 5000, "deleteSubscription")));
    await Promise.allSettled([withTimeout(this.topic.delete(), 5000, "deleteTopic")]);
    await Promise.allSettled([this.pubClient.close(), this.subClient.close()]);
  }
}

// ---------------------------------------------------------------- measurement glue

/** Runs fn under a resource monitor. */
export async function measured<T>(ctx: Ctx, fn: () => Promise<T>, intervalMs = 250): Promise<[T, Resources]> {
  const mon = await new Monitor(ctx.server, intervalMs).start();
  try {
    const v = await fn();
    return [v, await mon.stop()];
  } catch (e) { await mon.stop(); throw e; }
}

/** The measured interval of a paced scenario: `seconds` of open-loop publishing at `rate`
 *  (at most 10 s of it outstanding), then a drain; the marks either side and the resources. */
export function measuredPaced(ctx: Ctx, flow: Flow, seconds: number, rate: number, payload: (seq: number) => Buffer) {
  flow.startMeasuring();
  return measured(ctx, async () => {
    const a = flow.mark();
    await flow.paced({ ms: seconds * 1000, rate, payload, maxOutstanding: rate * 10 });
    await flow.drain(5000, 30000);
    return [a, flow.mark()] as const;
  });
}

/** A row from two marks of a drained flow. */
export function flowRow(o: { scenario: string; variant: string; config: Record<string, unknown>; flow: Flow; a: Mark; b: Mark;
  res: Resources; kind: "e2e" | "publish"; pass?: boolean | null; criterion?: string; extra?: Record<string, unknown> }): Row {
  const { flow, a, b } = o;
  const seconds = (b.t - a.t) / 1000;
  const e2e = o.kind === "e2e";
  const msgs = e2e ? b.received - a.received : b.acked - a.acked;
  const bytes = e2e ? b.rxBytes - a.rxBytes : b.txBytes - a.txBytes;
  const { lost, dup, foreign } = flow.losses();
  const { samples: _s, ...resources } = o.res;
  return row({
    scenario: o.scenario, variant: o.variant, config: o.config, messages: msgs, seconds,
    msgsPerSec: msgs / seconds, mbPerSec: bytes / 1e6 / seconds,
    latencyKind: o.kind, latency: e2e ? flow.e2e.summary() : flow.pubLat.summary(),
    lost: e2e ? lost : null, duplicates: e2e ? dup : null,
    errors: flow.pubErrors + flow.subErrors, errorKinds: flow.errors, resources,
    pass: o.pass ?? null, criterion: o.criterion ?? null,
    extra: { published: flow.sent, acked: flow.ackedCount, ...(foreign ? { foreign } : {}), ...(e2e ? { publishP99: flow.pubLat.summary().p99 } : {}), ...o.extra },
  });
}

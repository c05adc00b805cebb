// The soak's side traffic beside a Flow's paced publishing and StreamingPull subscriber: a unary
// Pull loop on a second subscription of the same topic (acks, and a nack of every NACK_EVERY-th
// message, which comes back), snapshot + seek + snapshot delete on that subscription, and
// resource churn (a topic and subscription created, used and deleted). Every loop stops with
// stop() and every call is bounded by a deadline; every failure is counted by kind.
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import { Deliveries, Latencies, nowMs, sleep } from "./stats.ts";
import { PROJECT, RUN_TAG, uniqueName, type Flow } from "./flow.ts";

// The generated clients would otherwise probe the GCE metadata server (a warning and a delay).
process.env.METADATA_SERVER_DETECTION ??= "none";

const NACK_EVERY = 50;
const SEEK_EVERY_MS = 30_000;
const CHURN_EVERY_MS = 5_000;
const CALL_MS = 30_000;

export class SideTraffic {
  readonly pulled = new Deliveries();
  pullLat = new Latencies();
  nacks = 0;
  seeks = 0;
  churned = 0;
  errors: Record<string, number> = {};
  private stopped = false;
  private loops: Promise<void>[] = [];
  private pub: v1.PublisherClient;
  private sub: v1.SubscriberClient;

  private constructor(target: string, private flow: Flow, readonly subName: string) {
    const [host, port] = [target.slice(0, target.lastIndexOf(":")), Number(target.slice(target.lastIndexOf(":") + 1))];
    const opts = { servicePath: host, apiEndpoint: host, port, sslCreds: grpc.credentials.createInsecure(), projectId: PROJECT };
    this.pub = new v1.PublisherClient(opts);
    this.sub = new v1.SubscriberClient(opts);
  }

  /** A second subscription on the flow's topic, read by unary Pull; the loops start at once. */
  static async start(target: string, flow: Flow): Promise<SideTraffic> {
    const name = `projects/${PROJECT}/subscriptions/${uniqueName("soak-unary")}`;
    const t = new SideTraffic(target, flow, name);
    await t.sub.createSubscription({ name, topic: flow.topic.name, ackDeadlineSeconds: 30 }, { timeout: CALL_MS });
    t.loops = [t.pullLoop(), t.every(SEEK_EVERY_MS, () => t.seek()), t.every(CHURN_EVERY_MS, () => t.churn())];
    return t;
  }

  get errorCount() {
    return Object.values(this.errors).reduce((a, b) => a + b, 0);
  }

  private count(where: string, e: unknown) {
    const k = `${where}:${(e as { code?: unknown })?.code ?? (e as Error)?.message ?? e}`;
    this.errors[k] = (this.errors[k] ?? 0) + 1;
  }

  private async pullLoop() {
    let seen = 0;
    while (!this.stopped) {
      try {
        const [res] = await this.sub.pull({ subscription: this.subName, maxMessages: 500 }, { timeout: CALL_MS });
        const ack: string[] = [];
        const nack: string[] = [];
        for (const r of res.receivedMessages ?? []) {
          const a = r.message?.attributes;
          if (a?.r !== RUN_TAG) continue;
          if (++seen % NACK_EVERY === 0) {
            nack.push(r.ackId!);
            continue;
          }
          if (this.pulled.mark(Number(a.s))) this.pullLat.add(nowMs() - Number(a.t));
          ack.push(r.ackId!);
        }
        if (ack.length) await this.sub.acknowledge({ subscription: this.subName, ackIds: ack }, { timeout: CALL_MS });
        if (nack.length) {
          await this.sub.modifyAckDeadline({ subscription: this.subName, ackIds: nack, ackDeadlineSeconds: 0 }, { timeout: CALL_MS });
          this.nacks += nack.length;
        }
      } catch (e) {
        if (this.stopped) return;
        this.count("pull", e);
        await sleep(100);
      }
    }
  }

  private async every(ms: number, fn: () => Promise<void>) {
    while (!this.stopped) {
      for (let waited = 0; waited < ms && !this.stopped; waited += 250) await sleep(250);
      if (!this.stopped) await fn();
    }
  }

  /** A snapshot of the unary subscription, a seek to it (redelivers what was acked since: duplicates, never losses), and its deletion. */
  private async seek() {
    const snapshot = `projects/${PROJECT}/snapshots/${uniqueName("soak-snap")}`;
    try {
      await this.sub.createSnapshot({ name: snapshot, subscription: this.subName }, { timeout: CALL_MS });
      await this.sub.seek({ subscription: this.subName, snapshot }, { timeout: CALL_MS });
      await this.sub.deleteSnapshot({ snapshot }, { timeout: CALL_MS });
      this.seeks++;
    } catch (e) {
      this.count("seek", e);
    }
  }

  /** A topic and a subscription created, five messages through them, both deleted. */
  private async churn() {
    const topic = `projects/${PROJECT}/topics/${uniqueName("soak-churn")}`;
    const subscription = `projects/${PROJECT}/subscriptions/${uniqueName("soak-churn")}`;
    try {
      await this.pub.createTopic({ name: topic }, { timeout: CALL_MS });
      await this.sub.createSubscription({ name: subscription, topic }, { timeout: CALL_MS });
      await this.pub.publish({ topic, messages: Array.from({ length: 5 }, (_, i) => ({ data: Buffer.from(`churn ${i}`) })) }, { timeout: CALL_MS });
      const [res] = await this.sub.pull({ subscription, maxMessages: 10 }, { timeout: CALL_MS });
      const ids = (res.receivedMessages ?? []).map((r) => r.ackId!);
      if (ids.length) await this.sub.acknowledge({ subscription, ackIds: ids }, { timeout: CALL_MS });
      await this.sub.deleteSubscription({ subscription }, { timeout: CALL_MS });
      await this.pub.deleteTopic({ topic }, { timeout: CALL_MS });
      this.churned++;
    } catch (e) {
      this.count("churn", e);
    }
  }

  /** Waits (bounded) until the unary subscription has every message the server acknowledged. */
  async drain(maxMs: number): Promise<void> {
    const end = performance.now() + maxMs;
    while (performance.now() < end && this.pulled.lost(this.flow.acked) > 0) await sleep(250);
  }

  async stop() {
    this.stopped = true;
    await Promise.race([Promise.allSettled(this.loops), sleep(CALL_MS + 5000)]);
    try {
      await this.sub.deleteSubscription({ subscription: this.subName }, { timeout: 5000 });
    } catch {}
    await Promise.allSettled([this.pub.close(), this.sub.close()]);
  }
}

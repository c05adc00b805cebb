/**
 * How messages leave a subscription of each delivery kind. A DeliveryRuntime (push, an export
 * kind) attaches one Consumer per subscription of its kind; Deliveries is the lifecycle feature
 * that keeps exactly the right one attached: after a create, an update (a kind switch detaches
 * the old consumer first, so its in-flight messages settle or expire as any consumer's do, and
 * the new kind takes the rest), a restart; none while detached, deleted or stopping. A kind
 * without a runtime (core tests without a push sender) holds its messages.
 */
import type { Consumer } from "./consumer.ts";
import type { Lifecycle } from "../lifecycle.ts";
import type { SubscriptionResource } from "../resources.ts";
import type { Subscription } from "../subscription/subscription.ts";

/** What the operator surface shows of a subscription delivered by a runtime. */
export interface DeliveryStatus {
  kind: string;
  state: string;
  rows: number;
  /** Cloud Storage: objects and bytes written, and the batch being filled. */
  objects?: number;
  bytes?: number;
  openBatch?: { messages: number; bytes: number; startedAt: number; closesAt: number } | null;
}

export interface AttachedDelivery {
  readonly consumer: Consumer;
  /** The config changed, the kind stayed: follow it in place (true), or be replaced (false). */
  follow(sub: Subscription): boolean;
  /** Detached: no new work; answers to work in flight still settle. */
  stop(): void;
  status?(): DeliveryStatus;
}

export interface DeliveryRuntime {
  /** The kind's name in DELIVERY_KINDS. */
  readonly name: string;
  /** The subscription's config chooses this runtime. */
  applies(config: SubscriptionResource): boolean;
  attach(sub: Subscription): AttachedDelivery;
}

export class Deliveries implements Lifecycle<Subscription, SubscriptionResource> {
  private attached = new Map<Subscription, { runtime: DeliveryRuntime; delivery: AttachedDelivery }>();

  constructor(private runtimes: readonly DeliveryRuntime[]) {}

  created(sub: Subscription): void {
    this.sync(sub);
  }

  restored(sub: Subscription): void {
    this.sync(sub);
  }

  updated(sub: Subscription): void {
    this.sync(sub);
  }

  detached(sub: Subscription): void {
    this.detach(sub);
  }

  removed(sub: Subscription): void {
    this.detach(sub);
  }

  stopped(): void {
    for (const sub of [...this.attached.keys()]) this.detach(sub);
  }

  status(sub: Subscription): DeliveryStatus | null {
    return this.attached.get(sub)?.delivery.status?.() ?? null;
  }

  private sync(sub: Subscription): void {
    const runtime = sub.config.detached ? undefined : this.runtimes.find((r) => r.applies(sub.config));
    const current = this.attached.get(sub);
    if (current && current.runtime === runtime && current.delivery.follow(sub)) return;
    this.detach(sub);
    if (!runtime) return;
    const delivery = runtime.attach(sub);
    this.attached.set(sub, { runtime, delivery });
    sub.addConsumer(delivery.consumer);
  }

  private detach(sub: Subscription): void {
    const a = this.attached.get(sub);
    if (!a) return;
    this.attached.delete(sub);
    sub.removeConsumer(a.delivery.consumer);
    a.delivery.stop();
  }
}

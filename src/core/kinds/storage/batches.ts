/**
 * The open objects of Cloud Storage subscriptions. Each subscription fills one batch at a time; a
 * batch closes when it reaches max_messages, when the next message would take it past max_bytes
 * (a single larger message still makes an object of its own, as the real service allows), or
 * max_duration after it opened, on the emulator's Clock (so the manual clock drives it). Closing
 * hands the batch to `flush`; every write() that put messages in it settles once the object is
 * written: all of them written, or none.
 */
import type { Clock } from "../../clock.ts";
import type { Delivery } from "../../message.ts";
import type { SubscriptionResource } from "../../resources.ts";
import type { Subscription } from "../../subscription/subscription.ts";
import type { SinkResult } from "../export-delivery.ts";
import { batchLimits, storageConfigOf } from "./config.ts";

export interface StorageBatch {
  readonly subscription: string;
  /** The config the batch was opened under: a changed config closes it first. */
  readonly config: SubscriptionResource;
  readonly startedAt: number;
  readonly closesAt: number;
  readonly deliveries: Delivery[];
  bytes: number;
}

interface Open {
  batch: StorageBatch;
  timer: unknown;
  waiters: Array<(r: SinkResult) => void>;
  limits: ReturnType<typeof batchLimits>;
}

/** What a written object adds to the subscription's figures. */
export interface Written {
  objects: number;
  bytes: number;
}

export class StorageBatches {
  private open = new Map<Subscription, Open>();
  private written = new WeakMap<Subscription, Written>();

  constructor(
    private clock: Clock,
    /** Bytes a message adds to an object of this config. */
    private sizeOf: (d: Delivery, config: SubscriptionResource) => number,
    /** Writes the object; resolves with its size in bytes, rejects with the state that stopped it. */
    private flush: (sub: Subscription, batch: StorageBatch) => Promise<number>,
  ) {}

  /** Puts the deliveries in the subscription's open batch(es); settles when their objects are written. */
  add(sub: Subscription, deliveries: readonly Delivery[]): Promise<SinkResult> {
    const parts: Promise<SinkResult>[] = [];
    let o = this.current(sub);
    let from = 0;
    for (let i = 0; i < deliveries.length; i++) {
      const d = deliveries[i];
      const size = this.sizeOf(d, o.batch.config);
      if (o.batch.deliveries.length && o.batch.bytes + size > o.limits.maxBytes) {
        if (i > from) parts.push(this.settled(o, deliveries.slice(from, i)));
        from = i;
        this.close(sub, o);
        o = this.current(sub);
      }
      o.batch.deliveries.push(d);
      o.batch.bytes += size;
      if (o.batch.deliveries.length >= o.limits.maxMessages || o.batch.bytes >= o.limits.maxBytes) {
        parts.push(this.settled(o, deliveries.slice(from, i + 1)));
        from = i + 1;
        this.close(sub, o);
        if (i + 1 < deliveries.length) o = this.current(sub);
      }
    }
    if (from < deliveries.length) parts.push(this.settled(o, deliveries.slice(from)));
    return Promise.all(parts).then((rs) => ({
      state: rs[rs.length - 1]?.state ?? "ACTIVE",
      written: rs.flatMap((r) => r.written),
    }));
  }

  /** The batch being filled, for inspection. */
  peek(sub: Subscription): StorageBatch | null {
    return this.open.get(sub)?.batch ?? null;
  }

  figures(sub: Subscription): Written {
    return this.written.get(sub) ?? { objects: 0, bytes: 0 };
  }

  private settled(o: Open, part: Delivery[]): Promise<SinkResult> {
    return new Promise((resolve) => o.waiters.push((r) => resolve(r.written.length ? { state: r.state, written: part } : r)));
  }

  private current(sub: Subscription): Open {
    const o = this.open.get(sub);
    if (o && o.batch.config === sub.config) return o;
    if (o) this.close(sub, o);
    const now = this.clock.now();
    const limits = batchLimits(storageConfigOf(sub.config)!);
    const batch: StorageBatch = { subscription: sub.config.name, config: sub.config, startedAt: now, closesAt: now + limits.durationMs, deliveries: [], bytes: 0 };
    const next: Open = { batch, waiters: [], limits, timer: null };
    next.timer = this.clock.schedule(batch.closesAt, () => {
      next.timer = null;
      if (this.open.get(sub) === next) this.close(sub, next);
    });
    this.open.set(sub, next);
    return next;
  }

  private close(sub: Subscription, o: Open): void {
    if (this.open.get(sub) === o) this.open.delete(sub);
    if (o.timer !== null) this.clock.cancel(o.timer);
    o.timer = null;
    if (!o.batch.deliveries.length) return;
    this.flush(sub, o.batch).then(
      (bytes) => {
        const w = this.figures(sub);
        this.written.set(sub, { objects: w.objects + 1, bytes: w.bytes + bytes });
        for (const settle of o.waiters) settle({ state: "ACTIVE", written: o.batch.deliveries });
      },
      (state: unknown) => {
        const s = typeof state === "string" ? state : "ACTIVE";
        for (const settle of o.waiters) settle({ state: s, written: [] });
      },
    );
  }
}

/**
 * Delivery to a destination that is not a client (BigQuery, Bigtable): a Consumer per
 * subscription hands batches to the kind's sink, acks what was written and nacks the rest — a
 * failed write is a redelivery, never a loss, and a message that keeps failing reaches the
 * dead-letter topic through the subscription's own policy. While the destination is missing or
 * does not fit (NOT_FOUND, SCHEMA_MISMATCH…) delivery pauses and retries on the Clock with
 * backoff, so it resumes by itself once the destination is fixed.
 */
import type { Clock } from "../clock.ts";
import { Consumer } from "../delivery/consumer.ts";
import type { DeliveryRuntime, DeliveryStatus } from "../delivery/deliveries.ts";
import type { Delivery } from "../message.ts";
import { SECOND, type SubscriptionResource } from "../resources.ts";
import type { Subscription } from "../subscription/subscription.ts";

export interface SinkResult {
  /** The destination's state after the write (ACTIVE, NOT_FOUND, SCHEMA_MISMATCH…). */
  state: string;
  /** Deliveries whose rows were written: acked. The others are nacked. */
  written: Delivery[];
}

export interface ExportKind {
  /** "bigquery" or "bigtable": the config field and the metric label. */
  readonly name: string;
  /** The subscription delivers through this kind. */
  applies(config: SubscriptionResource): boolean;
  /** The state where it is kept in the config (output only). */
  setState(config: SubscriptionResource, state: string): void;
  /** Checks the destination now (after a create, an update, a restart); may answer later. */
  probe(sub: Subscription): string | Promise<string>;
  write(sub: Subscription, batch: Delivery[]): Promise<SinkResult>;
  /** The config field that holds the state; `${name}Config` when unset. */
  readonly field?: keyof SubscriptionResource;
  /** Lease and flow control of a kind that holds messages while it batches them (Cloud Storage). */
  consumerLimits?(config: SubscriptionResource): { leaseSeconds: number; maxOutstandingMessages: number; maxOutstandingBytes: number; maxBatch: number };
  /** More for the operator surface (objects and bytes written, the open batch). */
  details?(sub: Subscription): Partial<ExportStatus>;
}

export interface ExportDeps {
  clock: Clock;
  ack(subscription: string, ackIds: string[]): void;
  nack(subscription: string, ackIds: string[]): void;
}

const BACKOFF_MIN = SECOND;
const BACKOFF_MAX = 60 * SECOND;
const MAX_BATCH = 500;
const MAX_OUTSTANDING = 2000;
/**
 * A write holds its messages this long (the longest ack deadline): the writer, not a client,
 * decides when they are done, and a failed write nacks them at once. A lease as short as the
 * subscription's would let a slow write (or a jump of the test clock) hand the same messages out
 * again while the first write is still going.
 */
const WRITE_LEASE_SECONDS = 600;

/** What the operator surface shows of an export subscription. */
export type ExportStatus = DeliveryStatus;

export class ExportConsumer {
  readonly consumer: Consumer;
  private failures = 0;
  private timer: unknown = null;
  private stopped = false;
  /** Rows written since it was attached (a config change starts a new count). */
  rows = 0;

  constructor(
    private sub: Subscription,
    readonly kind: ExportKind,
    private deps: ExportDeps,
  ) {
    const limits = kind.consumerLimits?.(sub.config);
    this.consumer = new Consumer({
      ackDeadlineSeconds: limits?.leaseSeconds ?? WRITE_LEASE_SECONDS,
      maxOutstandingMessages: limits ? limits.maxOutstandingMessages : MAX_OUTSTANDING,
      maxOutstandingBytes: limits?.maxOutstandingBytes,
      maxBatch: limits?.maxBatch ?? MAX_BATCH,
      deliver: (batch) => this.write(batch),
      close: () => this.stop(),
    });
    const probed = kind.probe(sub);
    if (typeof probed === "string") this.setState(probed);
    else probed.then((s) => this.setState(s), () => {});
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.deps.clock.cancel(this.timer);
    this.timer = null;
  }

  private setState(state: string): void {
    if (!this.stopped) this.kind.setState(this.sub.config, state);
  }

  private write(batch: Delivery[]): void {
    this.kind.write(this.sub, batch).then(
      (r) => this.settle(batch, r),
      () => this.settle(batch, { state: "ACTIVE", written: [] }),
    );
  }

  private settle(batch: Delivery[], r: SinkResult): void {
    const name = this.sub.config.name;
    this.setState(r.state);
    const written = new Set(r.written);
    if (written.size) {
      this.deps.ack(name, r.written.map((d) => d.ackId));
      this.rows += written.size;
    }
    const failed = batch.filter((d) => !written.has(d));
    if (!failed.length) {
      this.failures = 0;
      return;
    }
    // Pause before the nack, or it would hand the messages straight back here. Rows that were
    // written show the destination works: the pause for the unwritable ones stays at its minimum,
    // so one bad message slows the others by a second, not by a minute.
    if (written.size) this.failures = 0;
    if (this.timer === null && !this.stopped) {
      this.failures++;
      this.pause();
    }
    this.deps.nack(name, failed.map((d) => d.ackId));
  }

  private pause(): void {
    const wait = Math.min(BACKOFF_MAX, BACKOFF_MIN * 2 ** Math.min(30, this.failures - 1));
    this.consumer.ready = false;
    const clock = this.deps.clock;
    this.timer = clock.schedule(clock.now() + wait, () => {
      this.timer = null;
      if (this.stopped) return;
      this.consumer.ready = true;
      this.sub.resume(this.consumer);
    });
  }
}

/**
 * An export kind as a delivery kind. A changed config is probed again with a fresh consumer
 * (destination, metadata, schema mode), so it never follows a change in place.
 */
export function exportRuntime(kind: ExportKind, deps: ExportDeps): DeliveryRuntime {
  return {
    name: kind.name,
    applies: (config) => kind.applies(config),
    attach(sub) {
      const ec = new ExportConsumer(sub, kind, deps);
      return {
        consumer: ec.consumer,
        follow: () => false,
        stop: () => ec.stop(),
        status() {
          const field = kind.field ?? (`${kind.name}Config` as keyof SubscriptionResource);
          const config = sub.config[field] as { state?: string } | undefined;
          return { kind: kind.name, state: config?.state ?? "", rows: ec.rows, ...kind.details?.(sub) };
        },
      };
    },
  };
}

/**
 * A topic: its resource, its attached subscriptions, publish → fan-out, and its log: while topic
 * retention is set or a snapshot of the topic lives, the store's log for the topic keeps every
 * message, trimmed from the oldest end as retention runs out and snapshots go.
 */
import type { CausalWake } from "./causal-wake.ts";
import type { Clock } from "../clock.ts";
import { DeadlineTimer } from "../deadline-timer.ts";
import type { BrokerObserver } from "../events.ts";
import type { MessageInput, StoredMessage } from "../message.ts";
import type { TopicResource } from "../resources.ts";
import type { PublishStage } from "../stages/stages.ts";
import type { Store } from "../store/store.ts";
import type { TopicSchema } from "../schemas/topic-schema.ts";
import type { TransformChain } from "../stages/transforms.ts";

/** What a topic fans a publish out to: a Subscription (named here so topic.ts never imports it). */
export interface TopicSubscriber {
  readonly name: string;
  /** Takes the messages of a publish its filter accepts (inside the publish's store transaction). */
  /** A promise: what the Publish's answer waits for (its delivery stage runs at publish). */
  enqueue(msgs: readonly StoredMessage[]): Promise<unknown> | null | void;
  /** After the publish committed: deliver. */
  published(): void;
  /** The topic's retention changed. */
  retentionChanged(): void;
}

export class Topic<S extends TopicSubscriber = TopicSubscriber> {
  readonly subscriptions = new Set<S>();
  /** fromSeq of each live snapshot on the topic: the log keeps everything from the smallest. */
  private snapshotSeqs: number[] = [];
  private logTimer: DeadlineTimer;
  /** Broker events; null (one check on the hot path) when nothing listens. */
  observer: BrokerObserver | null = null;
  /** The publish stages in order (stages.ts); empty for none: a publish pays one length check. */
  stages: readonly PublishStage[] = [];
  /** Wakes subscriptions after the publisher's answer (causal delivery); null wakes them at once. */
  wake: CausalWake | null = null;
  /** Its schema_settings resolved to a revision range (the "schema" stage reads it); none without them. */
  schema: TopicSchema | undefined = undefined;
  /** What the subscriptions' delivery stages run at publish for the last Publish (taken by its answer, takePrepared). */
  private prepared: Promise<unknown> | null = null;
  /** The enabled message_transforms (the "transforms" publish stage runs them); null for none. */
  transform: TransformChain | null = null;

  constructor(
    public config: TopicResource,
    private store: Store,
    private clock: Clock,
  ) {
    this.logTimer = new DeadlineTimer(clock, () => this.trimLog());
  }

  get name(): string {
    return this.config.name;
  }

  /**
   * Whether a publish may leave its messages (and so views into its request) held: by a
   * subscription, the log, or a stage's doing. When not, nothing of a publish outlives it.
   */
  get keepsMessages(): boolean {
    return this.subscriptions.size > 0 || this.logging || this.stages.length > 0 || this.transform !== null;
  }

  /** Whether new messages go into the log. */
  get logging(): boolean {
    return this.config.messageRetentionDuration !== undefined || this.snapshotSeqs.length > 0;
  }

  /** What the Publish just made must wait for before it is answered (subscription/early.ts); null for nothing. */
  takePrepared(): Promise<unknown> | null {
    const p = this.prepared;
    this.prepared = null;
    return p;
  }

  /**
   * Stores each message once and hands it to every subscription (each applies its filter); a
   * message no one holds is never kept. Returns their seqs (a message id is its seq's decimal form).
   */
  publish(inputs: readonly MessageInput[], sizes: readonly number[], now: number): number[] {
    const store = this.store;
    const subs = this.subscriptions;
    let prepared: Promise<unknown>[] | null = null;
    const msgs = store.transaction(() => {
      const msgs = store.append(this.name, inputs, sizes, now, this.logging);
      for (const s of subs) {
        const p = s.enqueue(msgs);
        if (p) (prepared ??= []).push(p);
      }
      return msgs;
    });
    // Taken in the same turn by the Publish that waits for it; other publishers (imports, dead
    // letters) leave it, and the next publish replaces it.
    this.prepared = prepared && Promise.all(prepared);
    if (!this.logTimer.armed && this.config.messageRetentionDuration !== undefined) this.trimLog();
    const observer = this.observer;
    if (observer) for (const m of msgs) observer.published(this.name, m);
    if (this.wake) this.wake.add(subs, msgs[0].seq);
    else for (const s of subs) s.published();
    const seqs = new Array<number>(msgs.length);
    for (let i = 0; i < msgs.length; i++) seqs[i] = msgs[i].seq;
    return seqs;
  }

  /** What the log still keeps, oldest first. */
  logged(): Iterable<StoredMessage> {
    return this.store.logged(this.name);
  }

  snapshotTaken(fromSeq: number): void {
    this.snapshotSeqs.push(fromSeq);
  }

  snapshotGone(fromSeq: number): void {
    const i = this.snapshotSeqs.indexOf(fromSeq);
    if (i >= 0) this.snapshotSeqs.splice(i, 1);
    this.trimLog();
  }

  /** Applies a new config at once: retention changes trim or extend the log from now on. */
  configure(config: TopicResource): void {
    this.config = config;
    this.trimLog();
    for (const s of this.subscriptions) s.retentionChanged();
  }

  /** The topic is deleted: its log goes. */
  close(): void {
    this.logTimer.cancel();
  }

  /**
   * Drops the log's oldest messages that neither retention nor a snapshot keeps, then arms one
   * timer for when the oldest kept one runs out of retention.
   */
  private trimLog(): void {
    const now = this.clock.now();
    const retention = this.config.messageRetentionDuration;
    const from = this.snapshotSeqs.length ? Math.min(...this.snapshotSeqs) : Infinity;
    const oldest = this.store.trimLog(
      this.name,
      (m) => m.seq < from && (retention === undefined || m.publishTime + retention <= now),
    );
    if (!oldest || retention === undefined || oldest.seq >= from) return;
    this.logTimer.armAt(oldest.publishTime + retention);
  }
}

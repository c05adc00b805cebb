/**
 * The subscriptions by name and their verbs: administration (create, get, update, list, delete)
 * and the delivery verbs transports call by name (Pull, StreamingPull, Acknowledge,
 * ModifyAckDeadline). The registry keeps lookup and removal; what a subscription does with its
 * messages is Subscription's.
 */
import type { Clock } from "../clock.ts";
import { Registry } from "../registry.ts";
import { Consumer, type ConsumerOptions } from "../delivery/consumer.ts";
import { Deliveries, type DeliveryRuntime } from "../delivery/deliveries.ts";
import { exactlyOnceFailure } from "../delivery/exactly-once.ts";
import { normalizeDelivery, pullRefusal } from "../delivery/kinds.ts";
import { pullOnce, type PullHandle } from "../delivery/pull.ts";
import type { Settler } from "../delivery/runtimes.ts";
import { PubSubError, alreadyExists, notFound } from "../errors.ts";
import type { BrokerObserver } from "../events.ts";
import type { ExportStatus } from "../kinds/export-delivery.ts";
import { Collection, type Lifecycle, type Removal } from "../lifecycle.ts";
import type { SubscriptionResource } from "../resources.ts";
import { applyMask } from "../rules/field-mask.ts";
import { compileFilter } from "../rules/filter.ts";
import { checkAckIds, checkModifyDeadline } from "../rules/limits.ts";
import { assignedSubscriptionName, parseName, parseProject } from "../rules/names.ts";
import { paginate, type Page } from "../rules/paging.ts";
import { SUBSCRIPTION_MASK, keptSubscription, normalizeSubscription } from "../rules/resource-rules.ts";
import { deliveryStages } from "../stages/stages.ts";
import type { TransformBindings } from "../stages/transform-bindings.ts";
import { transformDeliveryStage, type TransformChain } from "../stages/transforms.ts";
import type { EntryState, Store, StoreContents } from "../store/store.ts";
import type { CausalWake } from "../topic/causal-wake.ts";
import type { Topics } from "../topic/topics.ts";
import type { Entry } from "./backlog.ts";
import { deadLetterCopy } from "./dead-letter.ts";
import { Expirations } from "./expiration.ts";
import { retention, topicLink } from "./features.ts";
import { Subscription } from "./subscription.ts";

export interface SubscriptionsDeps {
  store: Store;
  clock: Clock;
  events: () => BrokerObserver | null;
  /** Most subscriptions per project. */
  quota: number;
  topics: Topics;
  transforms: TransformBindings;
  iam: Lifecycle<Subscription, SubscriptionResource>;
  /** The delivery runtimes (push, exports), settling through these subscriptions' verbs. */
  runtimes: (settle: Settler) => readonly DeliveryRuntime[];
  wake: CausalWake | null;
  /** How long a stream waits to fill a response after a publish; 0 sends at once. */
  fillWaitMs: number;
  /** How long a Pull without return_immediately waits for messages before answering empty. */
  pullWaitMs: number;
  /** Most messages in one Pull or StreamingPull response. */
  maxMessagesPerResponse: number;
}

export class Subscriptions extends Registry<Subscription, SubscriptionResource> {
  protected readonly all: Collection<Subscription, SubscriptionResource>;
  private deliveries: Deliveries;
  /** Set by shutdown(): what every new stream or Pull is answered. */
  private closing: PubSubError | null = null;

  constructor(private d: SubscriptionsDeps) {
    super("subscriptions", "subscription");
    this.deliveries = new Deliveries(d.runtimes(this));
    const expirations = new Expirations(d.clock, (sub) => this.delete(sub.name));
    // Order matters: on its topic before delivery starts; delivery detached before the chain goes.
    this.all = new Collection<Subscription, SubscriptionResource>("subscription", d.events, [
      topicLink,
      retention,
      expirations,
      deliveryStages<Subscription>([
        { name: "transforms", of: (s) => (s.config.messageTransforms?.length ? transformDeliveryStage(() => s.transform) : null) },
      ]),
      this.deliveries,
      d.iam,
      d.transforms.subscriptions,
    ]);
  }

  private newSubscription(config: SubscriptionResource, createdSeq = this.d.store.nextSeq, chain?: TransformChain | null): Subscription {
    const hooks = { deadLetter: (s: Subscription, e: Entry) => this.deadLetter(s, e) };
    const sub = new Subscription(config, this.d.clock, this.d.store, hooks, this.d.fillWaitMs, createdSeq);
    sub.transform = chain === undefined ? this.d.transforms.restored(config.messageTransforms) : chain;
    sub.holdings.matches = compileFilter(config.filter);
    sub.holdings.filtered = config.filter !== "";
    sub.observer = this.d.events();
    sub.causal = this.d.wake;
    return sub;
  }

  /** A stored subscription at start, with what it held, back on its topic unless detached. */
  restore({ config: stored, createdSeq, entries }: StoreContents["subscriptions"][number]): void {
    const config = keptSubscription(stored);
    const sub = this.newSubscription(config, createdSeq);
    sub.topic = (!config.detached && this.d.topics.find(config.topic)) || null;
    sub.restore(entries);
    this.all.add(sub, "restored");
  }

  create(input: SubscriptionResource): SubscriptionResource {
    if (!input.name) input = { ...input, name: assignedSubscriptionName(input.topic) };
    parseName(input.name, "subscriptions");
    parseName(input.topic, "topics", "topic");
    if (this.all.has(input.name)) throw alreadyExists(input.name);
    const topic = this.d.topics.lookup(input.topic);
    const config = normalizeSubscription(input);
    normalizeDelivery(config);
    compileFilter(config.filter);
    if (config.deadLetterPolicy) this.d.topics.lookup(config.deadLetterPolicy.deadLetterTopic);
    this.all.admit(input.name, "subscriptions", this.d.quota);
    const chain = this.d.transforms.compile(config.messageTransforms);
    const sub = this.newSubscription(config, undefined, chain);
    sub.topic = topic;
    this.d.store.putSubscription(config, sub.createdSeq);
    this.all.add(sub, "created");
    return this.describe(sub);
  }

  get(name: string): SubscriptionResource {
    return this.describe(this.lookup(name));
  }

  update(input: SubscriptionResource, paths: readonly string[]): SubscriptionResource {
    const sub = this.lookup(input.name);
    const next = normalizeSubscription(applyMask(sub.config, input, paths, SUBSCRIPTION_MASK));
    if (next.deadLetterPolicy) this.d.topics.lookup(next.deadLetterPolicy.deadLetterTopic);
    normalizeDelivery(next, sub.config);
    const chain = this.d.transforms.compile(next.messageTransforms);
    const prev = sub.config;
    sub.reconfigure(next);
    this.d.transforms.set(sub, chain);
    this.all.updated(sub, prev);
    return this.describe(sub);
  }

  /** ModifyPushConfig is an update of push_config alone (an empty one makes it a pull subscription). */
  modifyPushConfig(name: string, pushConfig: Record<string, unknown> | undefined): void {
    this.update({ ...this.lookup(name).config, pushConfig }, ["push_config"]);
  }

  list(project: string, pageSize?: number, pageToken?: string): Page<SubscriptionResource> {
    const prefix = `projects/${parseProject(project)}/subscriptions/`;
    const all = [...this.all.values()].filter((s) => s.name.startsWith(prefix)).map((s) => this.describe(s));
    return paginate(all, (s) => s.name, pageSize, pageToken);
  }

  delete(name: string): void {
    this.remove(this.lookup(name), "deleted");
  }

  /** The one removal path of a subscription (delete, expiry, reset): what it holds goes, then its record. */
  remove(sub: Subscription, why: Removal): void {
    const error = why === "deleted" ? notFound(sub.name) : new PubSubError("UNAVAILABLE", "The emulator was reset.");
    this.all.remove(sub, why, () =>
      this.d.store.transaction(() => {
        sub.close(error);
        this.d.store.deleteSubscription(sub.name);
      }),
    );
  }

  /** Tells the features a subscription was detached (off its topic, no delivery runtime). */
  detached(sub: Subscription): void {
    this.all.detached(sub);
  }

  /** A BigQuery or Bigtable subscription's kind, state and rows written; null for pull and push. */
  exportStatus(name: string): ExportStatus | null {
    const sub = this.all.get(name);
    return sub ? this.deliveries.status(sub) : null;
  }

  /** Ends every stream and waiting Pull with UNAVAILABLE (what clients retry on); new ones get it too. */
  shutdown(): void {
    this.closing = new PubSubError("UNAVAILABLE", "The emulator is shutting down.");
    for (const sub of this.all.values()) sub.endConsumers(this.closing);
  }

  /** The server is stopping: no new push or export requests, no backoff timers left. */
  stopped(): void {
    this.all.stopped();
  }

  /**
   * A unary Pull: answers at once with what is ready, or waits up to pullWaitMs for the first
   * publish (return_immediately answers at once, empty or not).
   */
  pull(subName: string, maxMessages: number, returnImmediately = false): PullHandle {
    if (this.closing) throw this.closing;
    const sub = this.pullable(subName);
    if (!Number.isInteger(maxMessages) || maxMessages <= 0) {
      throw new PubSubError("INVALID_ARGUMENT", `Invalid max_messages: ${maxMessages}. It must be a positive integer.`);
    }
    const wait = returnImmediately ? 0 : this.d.pullWaitMs;
    return pullOnce(sub, this.d.clock, Math.min(maxMessages, this.d.maxMessagesPerResponse), wait);
  }

  /**
   * Acknowledges; returns the ack ids that matched no lease. With exactly-once delivery those
   * fail the request (the valid ones are still acked), as the real service answers.
   */
  acknowledge(subName: string, ackIds: readonly string[]): readonly string[] {
    checkAckIds(ackIds);
    const sub = this.lookup(subName);
    const invalidIds = sub.ack(ackIds);
    if (invalidIds.length && sub.config.enableExactlyOnceDelivery) throw exactlyOnceFailure(invalidIds);
    return invalidIds;
  }

  modifyAckDeadline(subName: string, ackIds: readonly string[], seconds: number): readonly string[] {
    checkModifyDeadline(seconds);
    checkAckIds(ackIds);
    const sub = this.lookup(subName);
    const invalidIds = sub.modifyAckDeadline(ackIds, seconds);
    if (invalidIds.length && sub.config.enableExactlyOnceDelivery) throw exactlyOnceFailure(invalidIds);
    return invalidIds;
  }

  /** A streaming consumer for a subscription; the caller adds it, and removes it when the stream ends. */
  streamConsumer(subName: string, o: Omit<ConsumerOptions, "maxBatch">): { sub: Subscription; consumer: Consumer } {
    if (this.closing) throw this.closing;
    const sub = this.pullable(subName);
    return { sub, consumer: new Consumer({ ...o, maxBatch: this.d.maxMessagesPerResponse, stream: true }) };
  }

  /** What a subscription holds, in publish order: unacked (waiting or leased) and kept acked messages. */
  entries(subName: string): Iterable<EntryState> {
    return this.lookup(subName).entries();
  }

  /** Pull and StreamingPull are refused on any kind but pull (push, the exports), as by the real service. */
  private pullable(name: string): Subscription {
    const sub = this.lookup(name);
    const refusal = pullRefusal(sub.config);
    if (refusal) throw refusal;
    return sub;
  }

  /**
   * A subscription as read: its topic's retention, and RESOURCE_ERROR while its export kind's own
   * state says the destination fails (ACTIVE again by itself once it works), as the real service.
   */
  private describe(sub: Subscription): SubscriptionResource {
    const r = sub.topic?.config.messageRetentionDuration;
    const kindState = this.deliveries.status(sub)?.state;
    const failing = !!kindState && kindState !== "ACTIVE";
    if (r === undefined && !failing) return sub.config;
    const out: SubscriptionResource = { ...sub.config };
    if (r !== undefined) out.topicMessageRetentionDuration = r;
    if (failing) out.state = "RESOURCE_ERROR";
    return out;
  }

  /** Dead-lettering republishes a copy to the policy's topic; false (keep redelivering) if it is gone. */
  private deadLetter(sub: Subscription, entry: Entry): boolean {
    const dlq = sub.config.deadLetterPolicy && this.d.topics.find(sub.config.deadLetterPolicy.deadLetterTopic);
    if (!dlq) return false;
    const { input, size } = deadLetterCopy(sub.name, entry);
    this.d.events()?.deadLettered(sub.name, entry.msg, dlq.name);
    dlq.publish([input], [size], this.d.clock.now());
    return true;
  }
}

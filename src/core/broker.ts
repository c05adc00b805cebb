/**
 * The façade every transport calls: topic, subscription and snapshot administration, publish,
 * pull, ack, seek. Each method validates its input with the real service's rules and throws
 * PubSubError; every config change goes through one method here, so nothing keeps a stale copy.
 */
import type { Entry } from "./subscription/backlog.ts";
import type { Clock } from "./clock.ts";
import { CausalWake, type Defer } from "./topic/causal-wake.ts";
import { Consumer, type ConsumerOptions } from "./delivery/consumer.ts";
import { deadLetterCopy } from "./subscription/dead-letter.ts";
import { PubSubError, alreadyExists, failedPrecondition, invalid, notFound } from "./errors.ts";
import { ObserverSet, type BrokerObserver } from "./events.ts";
import { exactlyOnceFailure } from "./delivery/exactly-once.ts";
import { Expirations } from "./subscription/expiration.ts";
import { applyMask } from "./rules/field-mask.ts";
import { compileFilter } from "./rules/filter.ts";
import { IamPolicies } from "./iam.ts";
import { checkAckIds, checkModifyDeadline, checkPublish } from "./rules/limits.ts";
import { MemoryBudget } from "./memory-budget.ts";
import type { MessageInput } from "./message.ts";
import { assignedSubscriptionName, DELETED_TOPIC, parseName, parseProject } from "./rules/names.ts";
import { pullOnce, type PullHandle } from "./delivery/pull.ts";
import { paginate, type Page } from "./rules/paging.ts";
import type { ExportStatus } from "./kinds/export-delivery.ts";
import { deliveryRuntimes, type DeliveryOptions } from "./delivery/runtimes.ts";
import { Deliveries } from "./delivery/deliveries.ts";
import { normalizeDelivery, pullRefusal } from "./delivery/kinds.ts";
import { Collection } from "./lifecycle.ts";
import { retention, topicLink } from "./subscription/features.ts";
import { TransformBindings } from "./stages/transform-bindings.ts";
import { SUBSCRIPTION_MASK, TOPIC_MASK, keptSubscription, keptTopic, normalizeSubscription, normalizeTopic } from "./rules/resource-rules.ts";
import { projectQuotas, type ProjectQuotas } from "./rules/quotas.ts";
import type { SubscriptionResource, TopicResource } from "./resources.ts";
import type { Removal } from "./lifecycle.ts";
import { SchemaRegistry } from "./schemas/registry.ts";
import { DELETED_SCHEMA, TopicSchemas } from "./schemas/topic-schema.ts";
import { seekToSnapshot, seekToTime } from "./topic/seek.ts";
import { Snapshots, type SnapshotResource } from "./topic/snapshots.ts";
import { MemoryStore } from "./store/memory-store.ts";
import type { EntryState, Store } from "./store/store.ts";
import { Subscription, type SubscriptionView } from "./subscription/subscription.ts";
import { Topic } from "./topic/topic.ts";
import type { AiInferenceCaller, CompressionCodec, TransformEngine } from "./stages/transform-engine.ts";
import { transformAtPublishAsync, transformDeliveryStage, transformPublishStage, type ChainResult, type TransformChain } from "./stages/transforms.ts";
import { deliveryStages, publishStages, runPublishStages, type PublishBatch } from "./stages/stages.ts";

export type { PullHandle } from "./delivery/pull.ts";

/** What the operator surface reads of a topic. */
export interface TopicView {
  readonly name: string;
  readonly config: Readonly<TopicResource>;
  readonly subscriptions: number;
}

/** A topic whose fan-out list holds the broker's subscriptions. */
type SubTopic = Topic<Subscription>;

export interface BrokerOptions extends DeliveryOptions<Broker> {
  clock: Clock;
  /** Where topics, subscriptions, snapshots, schemas, IAM policies and messages are kept; in memory by default. */
  store?: Store;
  /** Most messages in one Pull or StreamingPull response. */
  maxMessagesPerResponse?: number;
  /** How long a stream waits to fill a response after a publish; 0 sends at once. */
  fillWaitMs?: number;
  /** How long a Pull without return_immediately waits for messages before answering empty. */
  pullWaitMs?: number;
  /** Publish is refused past it (default: no budget); it reads what the store holds. */
  memory?: MemoryBudget;
  /**
   * Loads the engine that runs message_transforms, on the first need (ensureTransformEngine): a
   * server whose resources have none never loads it. Without a loader they are validated and
   * stored but never run.
   */
  transforms?: () => Promise<TransformEngine>;
  /** ZLIB and Zstandard for the Compression transform (node:zlib's, given by the server). */
  compression?: CompressionCodec;
  /** Calls the models of ai_inference transforms (--ai-inference-endpoint); without it they pass messages on. */
  inference?: AiInferenceCaller;
  /** Per-project resource limits; the real service's where not given. */
  quotas?: Partial<ProjectQuotas>;
  /**
   * Causal delivery: how a publish's wake-up of its subscriptions is put off until the publisher
   * has its answer (a real timer, src/core/topic/causal-wake.ts); without it they are woken at once.
   */
  deferDelivery?: Defer;
}

export class Broker {
  readonly clock: Clock;
  readonly store: Store;
  readonly maxMessagesPerResponse: number;
  private readonly fillWaitMs: number;
  private readonly pullWaitMs: number;
  private topics: Collection<SubTopic, TopicResource>;
  private subs: Collection<Subscription, SubscriptionResource>;
  readonly quotas: ProjectQuotas;
  private snapshots: Snapshots;
  private expirations: Expirations;
  readonly memory: MemoryBudget;
  /** Set by shutdown(): what every new stream or Pull is answered. */
  private closing: PubSubError | null = null;
  private topicSchemas: TopicSchemas;
  private deliveries: Deliveries;
  readonly schemas: SchemaRegistry;
  readonly iam: IamPolicies;
  private observers = new ObserverSet();
  private transforms: TransformBindings;
  private wake: CausalWake | null;
  /** Per topic, the last asynchronous Publish: the next one waits for it, so publishes are stored in the order they came. */
  private publishTails = new Map<string, Promise<unknown>>();

  constructor(o: BrokerOptions) {
    this.clock = o.clock;
    this.transforms = new TransformBindings(o.transforms ?? null, () => o.clock.now(), o.compression ?? null, o.inference ?? null);
    this.store = o.store ?? new MemoryStore();
    this.maxMessagesPerResponse = o.maxMessagesPerResponse ?? 1000;
    this.fillWaitMs = o.fillWaitMs ?? 0;
    this.wake = o.deferDelivery ? new CausalWake(o.deferDelivery) : null;
    this.pullWaitMs = o.pullWaitMs ?? 5000;
    this.quotas = projectQuotas(o.quotas);
    this.snapshots = new Snapshots(this.store, this.clock, () => this.events, this.quotas.snapshots);
    this.expirations = new Expirations(this.clock, (sub) => this.deleteSubscription(sub.name));
    this.memory = o.memory ?? new MemoryBudget({ maxBytes: Infinity, now: () => o.clock.now() });
    this.memory.track(this.store);
    this.schemas = new SchemaRegistry(o.clock, this.store, this.quotas.schemas);
    this.schemas.onDelete = (name) => this.schemaDeleted(name);
    this.topicSchemas = new TopicSchemas(this.schemas);
    this.iam = new IamPolicies((resource) => this.requireResource(resource), this.store);
    this.deliveries = new Deliveries(deliveryRuntimes(o.clock, o, this));
    const events = () => this.events;
    this.topics = new Collection<SubTopic, TopicResource>("topic", events, [
      { removed: (t) => this.topicSchemas.set(t.name, undefined) },
      publishStages<SubTopic>([
        { name: "transforms", of: (t) => (t.config.messageTransforms?.length ? transformPublishStage(() => this.transforms.topicChain(t.name)) : null) },
        { name: "schema", of: (t) => (t.config.schemaSettings ? this.topicSchemas.stage(t.name) : null) },
      ]),
      this.transforms.topics,
      this.iam.lifecycle,
    ]);
    // Order matters: on its topic before delivery starts; delivery detached before the chain goes.
    this.subs = new Collection<Subscription, SubscriptionResource>("subscription", events, [
      topicLink,
      retention,
      this.expirations,
      deliveryStages<Subscription>([
        { name: "transforms", of: (s) => (s.config.messageTransforms?.length ? transformDeliveryStage(() => s.transform, this.transforms.callsModel(s.config.messageTransforms)) : null) },
      ]),
      this.deliveries,
      this.iam.lifecycle,
      this.transforms.subscriptions,
    ]);
    this.restore();
  }

  /** Attaches an observer of broker events; the returned function detaches it. */
  observe(o: BrokerObserver): () => void {
    return this.observers.attach(o, () => {
      const current = this.observers.current;
      for (const t of this.topics.values()) t.observer = current;
      for (const s of this.subs.values()) s.observer = current;
    });
  }

  private get events(): BrokerObserver | null {
    return this.observers.current;
  }

  /**
   * Rebuilds schemas, topics (whose schema settings resolve against them), subscriptions (with
   * what they hold), snapshots and then the resources' IAM policies from what the store kept.
   */
  private restore(): void {
    const kept = this.store.contents();
    this.schemas.restore(kept.schemas);
    for (let t of kept.topics) {
      t = keptTopic(t);
      const schema = this.topicSchemas.restore(t);
      // A schema the store no longer has (deleted, or from a data dir that kept no schemas).
      if (schema?.schema === DELETED_SCHEMA && (t.schemaSettings as { schema?: string }).schema !== DELETED_SCHEMA) {
        t = { ...t, schemaSettings: { ...(t.schemaSettings as object), schema: DELETED_SCHEMA } };
        this.store.putTopic(t);
      }
      this.topicSchemas.set(t.name, schema);
      this.topics.add(this.newTopic(t), "restored");
    }
    for (const { config: stored, createdSeq, entries } of kept.subscriptions) {
      const config = keptSubscription(stored);
      const sub = this.newSubscription(config, createdSeq);
      sub.topic = (!config.detached && this.topics.get(config.topic)) || null;
      sub.restore(entries);
      this.subs.add(sub, "restored");
    }
    for (const s of kept.snapshots) this.snapshots.restore(s, this.topics.get(s.topic) ?? null);
    for (const t of this.topics.values()) t.configure(t.config);
    this.iam.restore(kept.policies);
  }

  /** Whether a resource has transforms the engine (not loaded yet) should run. */
  needsTransformEngine(): boolean {
    return this.transforms.needsEngine(this.topics.values(), this.subs.values());
  }

  /** Loads the engine once, then compiles the transforms of every resource that has some. */
  ensureTransformEngine(): Promise<void> {
    return this.transforms.ensureEngine(() => this.topics.values(), () => this.subs.values());
  }

  /** The loaded transform engine; null until ensureTransformEngine (or without a loader). */
  get transformEngine(): TransformEngine | null {
    return this.transforms.engine;
  }

  /** The transforms of a topic or subscription as the operator surface shows them. */
  transformsOf(name: string): TransformChain | null {
    return this.transforms.topicChain(name) ?? this.subs.get(name)?.transform ?? null;
  }

  private newTopic(config: TopicResource): SubTopic {
    const topic = new Topic<Subscription>(config, this.store, this.clock);
    topic.wake = this.wake;
    return topic;
  }

  private newSubscription(config: SubscriptionResource, createdSeq = this.store.nextSeq, chain?: TransformChain | null): Subscription {
    const hooks = { deadLetter: (s: Subscription, e: Entry) => this.deadLetter(s, e) };
    const sub = new Subscription(config, this.clock, this.store, hooks, this.fillWaitMs, createdSeq);
    sub.transform = chain === undefined ? this.transforms.restored(config.messageTransforms) : chain;
    sub.holdings.matches = compileFilter(config.filter);
    sub.holdings.filtered = config.filter !== "";
    sub.observer = this.events;
    sub.causal = this.wake;
    return sub;
  }

  // ---- topics ----

  createTopic(input: TopicResource): TopicResource {
    parseName(input.name, "topics");
    if (this.topics.has(input.name)) throw alreadyExists(input.name);
    const config = normalizeTopic(input);
    const schema = this.topicSchemas.resolve(config);
    this.topics.admit(input.name, "topics", this.quotas.topics);
    const chain = this.transforms.compile(config.messageTransforms);
    const topic = this.newTopic(config);
    topic.observer = this.events;
    this.store.putTopic(topic.config);
    this.topicSchemas.set(topic.name, schema);
    this.transforms.setTopic(topic.name, chain);
    this.topics.add(topic, "created");
    return topic.config;
  }

  getTopic(name: string): TopicResource {
    return this.topic(name).config;
  }

  updateTopic(input: TopicResource, paths: readonly string[]): TopicResource {
    const topic = this.topic(input.name);
    const next = normalizeTopic(applyMask(topic.config, input, paths, TOPIC_MASK));
    const schema = this.topicSchemas.resolve(next);
    const chain = this.transforms.compile(next.messageTransforms);
    const prev = topic.config;
    this.store.putTopic(next);
    topic.configure(next);
    this.topicSchemas.set(topic.name, schema);
    this.transforms.setTopic(topic.name, chain);
    this.topics.updated(topic, prev);
    this.events?.resourceChanged("topic", "updated", topic.name);
    return next;
  }

  listTopics(project: string, pageSize?: number, pageToken?: string): Page<TopicResource> {
    const prefix = `projects/${parseProject(project)}/topics/`;
    const all = [...this.topics.values()].filter((t) => t.name.startsWith(prefix)).map((t) => t.config);
    return paginate(all, (t) => t.name, pageSize, pageToken);
  }

  listTopicSubscriptions(topicName: string, pageSize?: number, pageToken?: string): Page<string> {
    const names = [...this.topic(topicName).subscriptions].map((s) => s.name);
    return paginate(names, (n) => n, pageSize, pageToken);
  }

  listTopicSnapshots(topicName: string, pageSize?: number, pageToken?: string): Page<string> {
    return this.snapshots.listForTopic(this.topic(topicName), pageSize, pageToken);
  }

  /** Its subscriptions stay (naming _deleted-topic_) with what they hold; its log and snapshots' topic go. */
  deleteTopic(name: string): void {
    const topic = this.topic(name);
    this.store.transaction(() => this.removeTopic(topic, "deleted"));
  }

  /**
   * The one removal path of a topic (delete, reset): its subscriptions stay, naming
   * _deleted-topic_; its log goes, and so does its snapshots' topic.
   */
  private removeTopic(topic: SubTopic, why: Removal): void {
    this.topics.remove(topic, why, () => {
      for (const s of topic.subscriptions) this.setConfig(s, { ...s.config, topic: DELETED_TOPIC }, true);
      if (why === "deleted") this.snapshots.topicDeleted(topic);
      this.store.deleteTopic(topic.name);
      topic.subscriptions.clear();
      topic.close();
    });
  }

  /** Validates and stores the messages once, fans them out, and returns their ids. */
  publish(topicName: string, messages: readonly MessageInput[], requestBytes?: number): string[] {
    const topic = this.topic(topicName);
    const sizes = checkPublish(messages, requestBytes);
    if (topic.stages.length !== 0) return this.publishStaged(topic, { messages, sizes, filtered: [] });
    this.admit(sizes);
    return topic.publish(messages, sizes, this.clock.now());
  }

  /** Whether a topic's Publish must go through publishAsync (its transforms call a model). */
  publishesAsync(topicName: string): boolean {
    const t = this.transforms.asyncTopics;
    return t.size !== 0 && t.has(topicName);
  }

  /**
   * Publish to a topic whose transforms call a model: the request is checked at once, its
   * messages' chains run concurrently, then what they made goes through the other stages and is
   * stored. Publishes to one topic are stored in the order they came (each waits for the one
   * before), so ordering keys keep their order across concurrent Publish calls.
   */
  publishAsync(topicName: string, messages: readonly MessageInput[], requestBytes?: number): Promise<string[]> {
    this.topic(topicName);
    const sizes = checkPublish(messages, requestBytes);
    const before = this.publishTails.get(topicName);
    const run = before ? before.then(() => this.publishTransformed(topicName, messages, sizes)) : this.publishTransformed(topicName, messages, sizes);
    const tail = run.then(
      () => {},
      () => {},
    );
    this.publishTails.set(topicName, tail);
    void tail.then(() => {
      if (this.publishTails.get(topicName) === tail) this.publishTails.delete(topicName);
    });
    return run;
  }

  private async publishTransformed(topicName: string, messages: readonly MessageInput[], sizes: number[]): Promise<string[]> {
    const chain = this.transforms.topicChain(topicName);
    const topic = this.topic(topicName);
    if (!chain?.async) return this.publishStaged(topic, { messages, sizes, filtered: [] });
    const t = await transformAtPublishAsync(chain, messages, this.clock.now());
    // The topic may have gone (or come again) while the models answered: what is there now is used.
    return this.publishStaged(this.topic(topicName), { messages: t.kept, sizes: t.sizes, filtered: t.filtered }, "transforms");
  }

  /** Publish is refused past the memory budget. */
  private admit(sizes: readonly number[]): void {
    let bytes = 0;
    for (const s of sizes) bytes += s;
    this.memory.admit(sizes.length, bytes);
  }

  /**
   * Publish through the topic's stages: what they return is stored; a message a stage filtered
   * out is acknowledged with an id taken from the same sequence that is never stored, so ids stay
   * unique.
   */
  private publishStaged(topic: SubTopic, batch: PublishBatch, done?: string): string[] {
    const stages = done ? topic.stages.filter((s) => s.name !== done) : topic.stages;
    const { messages, sizes, filtered } = runPublishStages(stages, batch, this.clock.now());
    let stored: string[] = [];
    if (messages.length > 0) {
      this.admit(sizes);
      stored = topic.publish(messages, sizes, this.clock.now());
    }
    if (filtered.length === 0) return stored;
    let seq = this.store.skipSeqs(filtered.length);
    const ids = new Array<string>(batch.messages.length);
    let f = 0;
    let k = 0;
    for (let i = 0; i < ids.length; i++) ids[i] = filtered[f] === i ? (f++, String(seq++)) : stored[k++];
    return ids;
  }

  /** TestMessageTransforms: ad hoc transforms, or those of a topic or a subscription, traced on one message. */
  testTransforms(project: string, message: MessageInput, source: { transforms?: unknown[]; topic?: string; subscription?: string }): ChainResult[] | Promise<ChainResult[]> {
    return this.transforms.test(project, message, source, { topic: (n) => this.topic(n), subscription: (n) => this.subscription(n) });
  }

  /** ValidateMessageTransform: one transform, checked and compiled as a create would. */
  validateTransform(project: string, transform: unknown): void {
    this.transforms.validate(project, transform);
  }

  // ---- subscriptions ----

  createSubscription(input: SubscriptionResource): SubscriptionResource {
    if (!input.name) input = { ...input, name: assignedSubscriptionName(input.topic) };
    parseName(input.name, "subscriptions");
    parseName(input.topic, "topics", "topic");
    if (this.subs.has(input.name)) throw alreadyExists(input.name);
    const topic = this.topic(input.topic);
    const config = normalizeSubscription(input);
    normalizeDelivery(config);
    compileFilter(config.filter);
    if (config.deadLetterPolicy) this.topic(config.deadLetterPolicy.deadLetterTopic);
    this.subs.admit(input.name, "subscriptions", this.quotas.subscriptions);
    const chain = this.transforms.compile(config.messageTransforms);
    const sub = this.newSubscription(config, undefined, chain);
    sub.topic = topic;
    this.store.putSubscription(config, sub.createdSeq);
    this.subs.add(sub, "created");
    return this.describe(sub);
  }

  getSubscription(name: string): SubscriptionResource {
    return this.describe(this.subscription(name));
  }

  updateSubscription(input: SubscriptionResource, paths: readonly string[]): SubscriptionResource {
    const sub = this.subscription(input.name);
    const next = normalizeSubscription(applyMask(sub.config, input, paths, SUBSCRIPTION_MASK));
    if (next.deadLetterPolicy) this.topic(next.deadLetterPolicy.deadLetterTopic);
    normalizeDelivery(next, sub.config);
    const chain = this.transforms.compile(next.messageTransforms);
    const prev = sub.config;
    this.setConfig(sub, next);
    this.transforms.setSubscription(sub, chain);
    this.subs.updated(sub, prev);
    return this.describe(sub);
  }

  /** ModifyPushConfig is an update of push_config alone (an empty one makes it a pull subscription). */
  modifyPushConfig(name: string, pushConfig: Record<string, unknown> | undefined): void {
    this.updateSubscription({ ...this.subscription(name).config, pushConfig }, ["push_config"]);
  }

  listSubscriptions(project: string, pageSize?: number, pageToken?: string): Page<SubscriptionResource> {
    const prefix = `projects/${parseProject(project)}/subscriptions/`;
    const all = [...this.subs.values()].filter((s) => s.name.startsWith(prefix)).map((s) => this.describe(s));
    return paginate(all, (s) => s.name, pageSize, pageToken);
  }

  deleteSubscription(name: string): void {
    this.removeSubscription(this.subscription(name), "deleted");
  }

  /** The one removal path of a subscription (delete, expiry, reset): what it holds goes, then its record. */
  private removeSubscription(sub: Subscription, why: Removal): void {
    const error = why === "deleted" ? notFound(sub.name) : new PubSubError("UNAVAILABLE", "The emulator was reset.");
    this.subs.remove(sub, why, () =>
      this.store.transaction(() => {
        sub.close(error);
        this.store.deleteSubscription(sub.name);
      }),
    );
  }

  /** Detached: off its topic, everything it held dropped; Pull and StreamingPull fail. */
  detachSubscription(name: string): void {
    const sub = this.subscription(name);
    this.subs.detached(sub);
    this.store.transaction(() => {
      this.setConfig(sub, { ...sub.config, detached: true }, true);
      sub.close(failedPrecondition(`Subscription ${name} is detached.`));
    });
  }

  // ---- snapshots and seek ----

  /** `tags` are input only: checked, never kept. */
  createSnapshot(name: string, subscription: string, labels?: Record<string, string>, tags?: Record<string, string>): SnapshotResource {
    return this.snapshots.create(name, this.subscription(subscription, "subscription"), labels, tags);
  }

  getSnapshot(name: string): SnapshotResource {
    return this.snapshots.resource(name);
  }

  listSnapshots(project: string, pageSize?: number, pageToken?: string): Page<SnapshotResource> {
    return this.snapshots.list(project, pageSize, pageToken);
  }

  updateSnapshot(input: SnapshotResource, paths: readonly string[]): SnapshotResource {
    return this.snapshots.update(input, paths);
  }

  deleteSnapshot(name: string): void {
    this.snapshots.delete(name);
    this.iam.drop(name);
  }

  /** Seek to a time (ms since the epoch) or to a snapshot: exactly one of the two. */
  seek(subName: string, target: { time?: number; snapshot?: string }): void {
    const sub = this.subscription(subName);
    if (sub.config.detached) throw failedPrecondition(`Subscription ${subName} is detached.`);
    sub.lastActive = this.clock.now();
    if (target.snapshot !== undefined) {
      const snap = this.snapshots.forSeek(target.snapshot);
      seekToSnapshot(sub, snap.record, snap.topic);
    } else if (target.time !== undefined) {
      if (!Number.isFinite(target.time)) throw invalid("Invalid time in SeekRequest.");
      seekToTime(sub, target.time, this.clock.now());
    } else throw invalid("A SeekRequest must set either time or snapshot.");
    this.events?.seeked(subName, target);
  }

  /** Ends every stream and waiting Pull with UNAVAILABLE (what clients retry on); new ones get it too. */
  shutdown(): void {
    this.closing = new PubSubError("UNAVAILABLE", "The emulator is shutting down.");
    for (const sub of this.subs.values()) sub.endConsumers(this.closing);
  }

  /** A BigQuery or Bigtable subscription's kind, state and rows written; null for pull and push. */
  exportStatus(name: string): ExportStatus | null {
    const sub = this.subs.get(name);
    return sub ? this.deliveries.status(sub) : null;
  }

  /** The server is stopping: no new push or export requests, no backoff timers left. */
  stopDeliveries(): void {
    this.subs.stopped();
  }

  /** Drops every resource, or those of one project (the admin API's reset). */
  reset(project?: string): { topics: number; subscriptions: number } {
    const prefix = project === undefined ? "" : `projects/${parseProject(project)}/`;
    const dropped = { topics: 0, subscriptions: 0 };
    this.store.transaction(() => {
      for (const sub of [...this.subs.values()]) {
        if (!sub.name.startsWith(prefix)) continue;
        this.removeSubscription(sub, "reset");
        dropped.subscriptions++;
      }
      this.snapshots.clear(prefix);
      for (const topic of [...this.topics.values()]) {
        if (!topic.name.startsWith(prefix)) continue;
        // A subscription of another project keeps working as if its topic were deleted.
        this.removeTopic(topic, "reset");
        dropped.topics++;
      }
    });
    this.schemas.clear(prefix);
    this.iam.clear(prefix);
    return dropped;
  }

  /** Every topic and subscription object (core tests). */
  resources(): { topics: Iterable<SubTopic>; subscriptions: Iterable<Subscription> } {
    return { topics: this.topics.values(), subscriptions: this.subs.values() };
  }

  /** What the operator surface (inspection, metrics) reads: read-only views, never the live objects. */
  *topicViews(): Iterable<TopicView> {
    for (const t of this.topics.values()) yield { name: t.name, config: t.config, subscriptions: t.subscriptions.size };
  }

  *subscriptionViews(): Iterable<SubscriptionView> {
    for (const s of this.subs.values()) yield s.view();
  }

  /** One subscription's view; NOT_FOUND (or INVALID_ARGUMENT for a bad name) as its RPCs answer. */
  subscriptionView(name: string): SubscriptionView {
    return this.subscription(name).view();
  }

  /** Counts for the metrics endpoint. */
  stats() {
    let backlog = 0;
    let outstanding = 0;
    for (const s of this.subs.values()) {
      backlog += s.backlogSize;
      outstanding += s.outstanding;
    }
    return {
      topics: this.topics.size,
      subscriptions: this.subs.size,
      snapshots: this.snapshots.size,
      backlog,
      outstanding,
      heldMessages: this.store.heldMessages,
      heldBytes: this.store.heldBytes,
    };
  }

  // ---- delivery ----

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
    return pullOnce(sub, this.clock, Math.min(maxMessages, this.maxMessagesPerResponse), returnImmediately ? 0 : this.pullWaitMs);
  }

  /**
   * Acknowledges; returns the ack ids that matched no lease. With exactly-once delivery those
   * fail the request (the valid ones are still acked), as the real service answers.
   */
  acknowledge(subName: string, ackIds: readonly string[]): readonly string[] {
    checkAckIds(ackIds);
    const sub = this.subscription(subName);
    const invalidIds = sub.ack(ackIds);
    if (invalidIds.length && sub.config.enableExactlyOnceDelivery) throw exactlyOnceFailure(invalidIds);
    return invalidIds;
  }

  modifyAckDeadline(subName: string, ackIds: readonly string[], seconds: number): readonly string[] {
    checkModifyDeadline(seconds);
    checkAckIds(ackIds);
    const sub = this.subscription(subName);
    const invalidIds = sub.modifyAckDeadline(ackIds, seconds);
    if (invalidIds.length && sub.config.enableExactlyOnceDelivery) throw exactlyOnceFailure(invalidIds);
    return invalidIds;
  }

  /** A streaming consumer for a subscription; the caller adds it, and removes it when the stream ends. */
  streamConsumer(subName: string, o: Omit<ConsumerOptions, "maxBatch">): { sub: Subscription; consumer: Consumer } {
    if (this.closing) throw this.closing;
    const sub = this.pullable(subName);
    return { sub, consumer: new Consumer({ ...o, maxBatch: this.maxMessagesPerResponse, stream: true }) };
  }

  /** What a subscription holds, in publish order: unacked (waiting or leased) and kept acked messages. */
  entries(subName: string): Iterable<EntryState> {
    return this.subscription(subName).entries();
  }

  /** The subscription object itself, for adapters that hold it across calls (streams). */
  subscription(name: string, field = "subscription"): Subscription {
    // Stored names were validated on create: validate only on a miss, to tell 3 from 5.
    const sub = this.subs.get(name);
    if (sub) return sub;
    parseName(name, "subscriptions", field);
    throw notFound(name);
  }

  /**
   * Throws NOT_FOUND unless `resource` names an existing topic, subscription, snapshot or schema:
   * the IAM methods' lookup.
   */
  requireResource(resource: string): void {
    const kind = (resource ?? "").split("/")[2];
    if (kind === "topics") this.topic(resource);
    else if (kind === "subscriptions") this.subscription(resource, "resource");
    else if (kind === "schemas") this.schemas.get(resource, "resource");
    else if (kind === "snapshots") this.snapshots.resource(resource);
    else throw invalid(`Invalid resource (resource=${String(resource).slice(0, 200)}): expected a topic, subscription, snapshot or schema name.`);
  }

  /** Pull and StreamingPull are refused on any kind but pull (push, the exports), as by the real service. */
  private pullable(name: string): Subscription {
    const sub = this.subscription(name);
    const refusal = pullRefusal(sub.config);
    if (refusal) throw refusal;
    return sub;
  }

  /** Topics of a deleted schema report `_deleted-schema_`, and publishing to them fails. */
  private schemaDeleted(name: string): void {
    this.iam.drop(name);
    for (const topicName of this.topicSchemas.schemaDeleted(name)) {
      const topic = this.topics.get(topicName);
      if (!topic) continue;
      const next = { ...topic.config, schemaSettings: { ...(topic.config.schemaSettings as object), schema: DELETED_SCHEMA } };
      this.store.putTopic(next);
      topic.config = next;
    }
  }

  /**
   * The one place a subscription's config changes after creation: stored, and observers hear of
   * it. `offTopic` takes it off its topic (the topic was deleted, or it was detached).
   */
  private setConfig(sub: Subscription, config: SubscriptionResource, offTopic = false): void {
    if (offTopic) sub.topic = null;
    sub.config = config;
    this.store.putSubscription(config, sub.createdSeq);
    this.events?.resourceChanged("subscription", "updated", sub.name);
  }

  /** The resource as Get reports it: topic_message_retention_duration is read from the topic now. */
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

  private topic(name: string): SubTopic {
    const topic = this.topics.get(name);
    if (topic) return topic;
    parseName(name, "topics", "topic");
    throw notFound(name);
  }

  /** Dead-lettering republishes a copy to the policy's topic; false (keep redelivering) if it is gone. */
  private deadLetter(sub: Subscription, entry: Entry): boolean {
    const dlq = sub.config.deadLetterPolicy && this.topics.get(sub.config.deadLetterPolicy.deadLetterTopic);
    if (!dlq) return false;
    const { input, size } = deadLetterCopy(sub.name, entry);
    this.events?.deadLettered(sub.name, entry.msg, dlq.name);
    dlq.publish([input], [size], this.clock.now());
    return true;
  }
}

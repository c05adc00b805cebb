/**
 * The façade every transport calls: topic, subscription and snapshot administration, publish,
 * pull, ack, seek. Each method validates its input with the real service's rules and throws
 * PubSubError; every config change goes through one method here, so nothing keeps a stale copy.
 */
import type { Entry } from "./backlog.ts";
import type { Clock } from "./clock.ts";
import { CausalWake, type Defer } from "./causal-wake.ts";
import { Consumer, type ConsumerOptions } from "./consumer.ts";
import { deadLetterCopy } from "./dead-letter.ts";
import { PubSubError, alreadyExists, failedPrecondition, invalid, notFound } from "./errors.ts";
import { ObserverSet, type BrokerObserver } from "./events.ts";
import { exactlyOnceFailure } from "./exactly-once.ts";
import { Expirations } from "./expiration.ts";
import { applyMask } from "./field-mask.ts";
import { compileFilter } from "./filter.ts";
import { IamPolicies } from "./iam.ts";
import { checkAckIds, checkModifyDeadline, checkPublish } from "./limits.ts";
import { MemoryBudget } from "./memory-budget.ts";
import type { MessageInput } from "./message.ts";
import { DELETED_TOPIC, parseName, parseProject } from "./names.ts";
import { pullOnce, type PullHandle } from "./pull.ts";
import { paginate, type Page } from "./paging.ts";
import { ProjectMap, projectQuotas, type ProjectQuotas } from "./quotas.ts";
import { normalizePushConfig, pullOnPush, pushEndpointOf } from "./push/push-config.ts";
import { PushDeliveries, pushDeps, type PushOptions, type PushSender } from "./push/push-delivery.ts";
import { ExportDeliveries, exportRefusal, type ExportKind, type ExportStatus } from "./kinds/export-delivery.ts";
import { normalizeExportConfigs } from "./kinds/export-config.ts";
import { SUBSCRIPTION_MASK, TOPIC_MASK, normalizeSubscription, normalizeTopic } from "./resource-rules.ts";
import type { SubscriptionResource, TopicResource } from "./resources.ts";
import { SchemaRegistry } from "./schemas/registry.ts";
import { DELETED_SCHEMA, TopicSchemas } from "./schemas/topic-schema.ts";
import { seekToSnapshot, seekToTime } from "./seek.ts";
import { Snapshots, type SnapshotResource } from "./snapshots.ts";
import { MemoryStore } from "./store/memory-store.ts";
import type { EntryState, Store } from "./store/store.ts";
import { Subscription } from "./subscription.ts";
import { Topic } from "./topic.ts";
import type { TransformEngine } from "./transform-engine.ts";
import { compileTransforms, transformAtPublish, udfMetadata, type ChainResult, type TransformChain } from "./transforms.ts";

export type { PullHandle } from "./pull.ts";

export interface BrokerOptions {
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
  /** How push subscriptions send; without it they hold their messages (core tests). */
  push?: { sender: PushSender; options?: Partial<PushOptions> };
  /** The export delivery kinds (BigQuery, Bigtable); without them such subscriptions hold their messages. */
  exports?: (broker: Broker) => readonly ExportKind[];
  /**
   * Loads the engine that runs message_transforms, on the first need (ensureTransformEngine): a
   * server whose resources have none never loads it. Without a loader they are validated and
   * stored but never run.
   */
  transforms?: () => Promise<TransformEngine>;
  /** Per-project resource limits; the real service's where not given. */
  quotas?: Partial<ProjectQuotas>;
  /**
   * Causal delivery: how a publish's wake-up of its subscriptions is put off until the publisher
   * has its answer (a real timer, src/core/causal-wake.ts); without it they are woken at once.
   */
  deferDelivery?: Defer;
}

export class Broker {
  readonly clock: Clock;
  readonly store: Store;
  readonly maxMessagesPerResponse: number;
  private readonly fillWaitMs: number;
  private readonly pullWaitMs: number;
  private topics = new ProjectMap<Topic>();
  private subs = new ProjectMap<Subscription>();
  readonly quotas: ProjectQuotas;
  private snapshots: Snapshots;
  private expirations: Expirations;
  readonly memory: MemoryBudget;
  /** Set by shutdown(): what every new stream or Pull is answered. */
  private closing: PubSubError | null = null;
  private topicSchemas: TopicSchemas;
  private push: PushDeliveries;
  private exports: ExportDeliveries;
  readonly schemas: SchemaRegistry;
  readonly iam: IamPolicies;
  private observers = new ObserverSet();
  private wake: CausalWake | null;
  transformEngine: TransformEngine | null = null;
  readonly loadTransformEngine: (() => Promise<TransformEngine>) | null;
  /** Each topic's enabled transforms; absent for a topic without any. */
  private topicChains = new Map<string, TransformChain>();

  constructor(o: BrokerOptions) {
    this.clock = o.clock;
    this.loadTransformEngine = o.transforms ?? null;
    this.store = o.store ?? new MemoryStore();
    this.maxMessagesPerResponse = o.maxMessagesPerResponse ?? 1000;
    this.fillWaitMs = o.fillWaitMs ?? 0;
    this.wake = o.deferDelivery ? new CausalWake(o.deferDelivery) : null;
    this.pullWaitMs = o.pullWaitMs ?? 5000;
    this.quotas = projectQuotas(o.quotas);
    this.snapshots = new Snapshots(this.store, this.clock, this.quotas.snapshots);
    this.expirations = new Expirations(this.clock, (sub) => this.deleteSubscription(sub.name));
    this.memory = o.memory ?? new MemoryBudget({ maxBytes: Infinity, now: () => o.clock.now() });
    this.memory.track(this.store);
    this.schemas = new SchemaRegistry(o.clock, this.store, this.quotas.schemas);
    this.schemas.onDelete = (name) => this.schemaDeleted(name);
    this.topicSchemas = new TopicSchemas(this.schemas);
    this.iam = new IamPolicies((resource) => this.requireResource(resource), this.store);
    this.push = new PushDeliveries(pushDeps(o.clock, o.push, this));
    // The same quiet ack and nack push uses (a deleted subscription has nothing left to settle).
    const settle = pushDeps(o.clock, { sender: { send: async () => 0 } }, this)!;
    this.exports = new ExportDeliveries(o.exports?.(this) ?? [], o.exports ? settle : null);
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
      const schema = this.topicSchemas.restore(t);
      // A schema the store no longer has (deleted, or from a data dir that kept no schemas).
      if (schema?.schema === DELETED_SCHEMA && (t.schemaSettings as { schema?: string }).schema !== DELETED_SCHEMA) {
        t = { ...t, schemaSettings: { ...(t.schemaSettings as object), schema: DELETED_SCHEMA } };
        this.store.putTopic(t);
      }
      this.topics.set(t.name, this.newTopic(t));
      this.setTopicChain(t.name, this.restoredChain(t.messageTransforms));
      this.topicSchemas.set(t.name, schema);
    }
    for (const { config, createdSeq, entries } of kept.subscriptions) {
      const sub = this.newSubscription(config, createdSeq);
      const topic = config.detached ? undefined : this.topics.get(config.topic);
      if (topic) {
        sub.topic = topic;
        topic.subscriptions.add(sub);
      }
      sub.restore(entries);
      this.subs.set(sub.name, sub);
      this.expirations.watch(sub);
      this.push.sync(sub);
      this.exports.sync(sub);
    }
    for (const s of kept.snapshots) this.snapshots.restore(s, this.topics.get(s.topic) ?? null);
    for (const t of this.topics.values()) t.configure(t.config);
    this.iam.restore(kept.policies);
  }

  /** A stored resource's transforms compiled again; one this engine refuses runs none (never fails a restart). */
  private restoredChain(list: readonly unknown[] | undefined): TransformChain | null {
    try {
      return compileTransforms(list, this.transformEngine);
    } catch {
      return null;
    }
  }

  private setTopicChain(name: string, chain: TransformChain | null): void {
    const old = this.topicChains.get(name);
    if (old !== chain) old?.dispose();
    if (chain) this.topicChains.set(name, chain);
    else this.topicChains.delete(name);
  }

  /** Whether a resource has transforms the engine (not loaded yet) should run. */
  needsTransformEngine(): boolean {
    if (this.transformEngine || !this.loadTransformEngine) return false;
    for (const t of this.topics.values()) if (t.config.messageTransforms?.length) return true;
    for (const s of this.subs.values()) if (s.config.messageTransforms?.length) return true;
    return false;
  }

  /** Loads the engine once, then compiles the transforms of every resource that has some. */
  async ensureTransformEngine(): Promise<void> {
    if (this.transformEngine || !this.loadTransformEngine) return;
    const engine = await this.loadTransformEngine();
    if (this.transformEngine) return;
    this.transformEngine = engine;
    for (const t of this.topics.values()) this.setTopicChain(t.name, this.restoredChain(t.config.messageTransforms));
    for (const s of this.subs.values()) this.setSubscriptionChain(s, this.restoredChain(s.config.messageTransforms));
  }

  private setSubscriptionChain(sub: Subscription, chain: TransformChain | null): void {
    if (sub.transform !== chain) sub.transform?.dispose();
    sub.transform = chain;
  }

  /** The transforms of a topic or subscription as the operator surface shows them. */
  transformsOf(name: string): TransformChain | null {
    return this.topicChains.get(name) ?? this.subs.get(name)?.transform ?? null;
  }

  private newTopic(config: TopicResource): Topic {
    const topic = new Topic(config, this.store, this.clock);
    topic.wake = this.wake;
    return topic;
  }

  private newSubscription(config: SubscriptionResource, createdSeq = this.store.nextSeq, chain?: TransformChain | null): Subscription {
    const hooks = { deadLetter: (s: Subscription, e: Entry) => this.deadLetter(s, e) };
    const sub = new Subscription(config, this.clock, this.store, hooks, this.fillWaitMs, createdSeq);
    sub.transform = chain === undefined ? this.restoredChain(config.messageTransforms) : chain;
    sub.matches = compileFilter(config.filter);
    sub.filtered = config.filter !== "";
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
    const chain = compileTransforms(config.messageTransforms, this.transformEngine);
    const topic = this.newTopic(config);
    topic.observer = this.events;
    this.store.putTopic(topic.config);
    this.topics.set(topic.name, topic);
    this.topicSchemas.set(topic.name, schema);
    this.setTopicChain(topic.name, chain);
    this.events?.resourceChanged("topic", "created", topic.name);
    return topic.config;
  }

  getTopic(name: string): TopicResource {
    return this.topic(name).config;
  }

  updateTopic(input: TopicResource, paths: readonly string[]): TopicResource {
    const topic = this.topic(input.name);
    const next = normalizeTopic(applyMask(topic.config, input, paths, TOPIC_MASK));
    const schema = this.topicSchemas.resolve(next);
    const chain = compileTransforms(next.messageTransforms, this.transformEngine);
    this.store.putTopic(next);
    topic.configure(next);
    this.topicSchemas.set(topic.name, schema);
    this.setTopicChain(topic.name, chain);
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
    this.store.transaction(() => {
      for (const s of topic.subscriptions) this.setConfig(s, { ...s.config, topic: DELETED_TOPIC }, true);
      this.snapshots.topicDeleted(topic);
      this.store.deleteTopic(name);
    });
    topic.subscriptions.clear();
    topic.close();
    this.topics.delete(name);
    this.topicSchemas.set(name, undefined);
    this.setTopicChain(name, null);
    this.iam.drop(name);
    this.events?.resourceChanged("topic", "deleted", name);
  }

  /** Validates and stores the messages once, fans them out, and returns their ids. */
  publish(topicName: string, messages: readonly MessageInput[], requestBytes?: number): string[] {
    const topic = this.topic(topicName);
    const sizes = checkPublish(messages, requestBytes);
    const chain = this.topicChains.get(topicName);
    if (chain) return this.publishTransformed(topic, chain, messages);
    let bytes = 0;
    for (const s of sizes) bytes += s;
    this.memory.admit(sizes.length, bytes);
    return topic.publish(this.topicSchemas.apply(topicName, messages), sizes, this.clock.now());
  }

  /**
   * Publish through the topic's transforms: what they return is checked against the message limits
   * and stored; a filtered message is acknowledged with an id taken from the same sequence that is
   * never stored, so ids stay unique.
   */
  private publishTransformed(topic: Topic, chain: TransformChain, messages: readonly MessageInput[]): string[] {
    const { kept, sizes, filtered } = transformAtPublish(chain, messages, this.clock.now());
    let stored: string[] = [];
    if (kept.length > 0) {
      let bytes = 0;
      for (const s of sizes) bytes += s;
      this.memory.admit(sizes.length, bytes);
      stored = topic.publish(this.topicSchemas.apply(topic.name, kept), sizes, this.clock.now());
    }
    if (filtered.length === 0) return stored;
    let seq = this.store.skipSeqs(filtered.length);
    const ids = new Array<string>(messages.length);
    let f = 0;
    let k = 0;
    for (let i = 0; i < messages.length; i++) ids[i] = filtered[f] === i ? (f++, String(seq++)) : stored[k++];
    return ids;
  }

  /**
   * TestMessageTransforms: `transforms` (ad hoc), or those of a topic or a subscription, traced on
   * one message. Validation errors are INVALID_ARGUMENT; a missing resource NOT_FOUND.
   */
  testTransforms(project: string, message: MessageInput, source: { transforms?: unknown[]; topic?: string; subscription?: string }): ChainResult[] {
    parseProject(project);
    if (!this.transformEngine) throw new PubSubError("UNIMPLEMENTED", "This emulator was started without a JavaScript engine for message transforms.");
    let chain: TransformChain | null;
    if (source.topic) chain = (this.topic(source.topic), this.topicChains.get(source.topic) ?? null);
    else if (source.subscription) chain = this.subscription(source.subscription).transform;
    else if (source.transforms?.length) {
      const adHoc = compileTransforms(source.transforms, this.transformEngine);
      try {
        return adHoc ? adHoc.trace(message.data, message.attributes, udfMetadata(undefined, this.clock.now(), message.orderingKey)) : [];
      } finally {
        adHoc?.dispose();
      }
    } else throw invalid("One of message_transforms, topic or subscription must be set.");
    return chain ? chain.trace(message.data, message.attributes, udfMetadata(undefined, this.clock.now(), message.orderingKey)) : [];
  }

  /** ValidateMessageTransform: one transform, checked and compiled as a create would. */
  validateTransform(project: string, transform: unknown): void {
    parseProject(project);
    if (!transform) throw invalid("message_transform is required.");
    compileTransforms([transform], this.transformEngine, "message_transform")?.dispose();
  }

  // ---- subscriptions ----

  createSubscription(input: SubscriptionResource): SubscriptionResource {
    parseName(input.name, "subscriptions");
    parseName(input.topic, "topics", "topic");
    if (this.subs.has(input.name)) throw alreadyExists(input.name);
    const topic = this.topic(input.topic);
    const config = normalizeSubscription(input);
    config.pushConfig = normalizePushConfig(config.pushConfig);
    normalizeExportConfigs(config);
    compileFilter(config.filter);
    if (config.deadLetterPolicy) this.topic(config.deadLetterPolicy.deadLetterTopic);
    this.subs.admit(input.name, "subscriptions", this.quotas.subscriptions);
    const chain = compileTransforms(config.messageTransforms, this.transformEngine);
    const sub = this.newSubscription(config, undefined, chain);
    sub.topic = topic;
    this.store.putSubscription(config, sub.createdSeq);
    this.subs.set(sub.name, sub);
    topic.subscriptions.add(sub);
    this.expirations.watch(sub);
    this.push.sync(sub);
    this.exports.sync(sub);
    this.events?.resourceChanged("subscription", "created", sub.name);
    return this.describe(sub);
  }

  getSubscription(name: string): SubscriptionResource {
    return this.describe(this.subscription(name));
  }

  updateSubscription(input: SubscriptionResource, paths: readonly string[]): SubscriptionResource {
    const sub = this.subscription(input.name);
    const next = normalizeSubscription(applyMask(sub.config, input, paths, SUBSCRIPTION_MASK));
    if (next.deadLetterPolicy) this.topic(next.deadLetterPolicy.deadLetterTopic);
    next.pushConfig = normalizePushConfig(next.pushConfig, sub.config.pushConfig);
    normalizeExportConfigs(next, sub.config);
    const chain = compileTransforms(next.messageTransforms, this.transformEngine);
    const prev = sub.config;
    this.setConfig(sub, next);
    this.setSubscriptionChain(sub, chain);
    if (prev.messageRetentionDuration !== next.messageRetentionDuration || prev.retainAckedMessages !== next.retainAckedMessages) {
      sub.retentionChanged();
    }
    this.expirations.watch(sub);
    this.push.sync(sub);
    this.exports.sync(sub);
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
    const sub = this.subscription(name);
    this.subs.delete(name);
    sub.topic?.subscriptions.delete(sub);
    this.expirations.unwatch(sub);
    this.push.detach(sub);
    this.exports.detach(sub);
    this.iam.drop(name);
    this.setSubscriptionChain(sub, null);
    this.store.transaction(() => {
      sub.close(notFound(name));
      this.store.deleteSubscription(name);
    });
    this.events?.resourceChanged("subscription", "deleted", name);
  }

  /** Detached: off its topic, everything it held dropped; Pull and StreamingPull fail. */
  detachSubscription(name: string): void {
    const sub = this.subscription(name);
    sub.topic?.subscriptions.delete(sub);
    this.push.detach(sub);
    this.exports.detach(sub);
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
    return sub ? this.exports.status(sub) : null;
  }

  /** Stops push delivery (the server is stopping): no new requests, no backoff timers left. */
  stopPush(): void {
    this.push.clear();
    this.exports.clear();
  }

  /** Drops every resource, or those of one project (the admin API's reset). */
  reset(project?: string): { topics: number; subscriptions: number } {
    const prefix = project === undefined ? "" : `projects/${parseProject(project)}/`;
    const dropped = { topics: 0, subscriptions: 0 };
    this.store.transaction(() => {
      for (const [name, sub] of this.subs) {
        if (!name.startsWith(prefix)) continue;
        this.subs.delete(name);
        sub.topic?.subscriptions.delete(sub);
        this.expirations.unwatch(sub);
        this.push.detach(sub);
        this.exports.detach(sub);
        sub.close(new PubSubError("UNAVAILABLE", "The emulator was reset."));
        this.setSubscriptionChain(sub, null);
        this.store.deleteSubscription(name);
        this.events?.resourceChanged("subscription", "deleted", name);
        dropped.subscriptions++;
      }
      this.snapshots.clear(prefix);
      for (const [name, topic] of this.topics) {
        if (!name.startsWith(prefix)) continue;
        // A subscription of another project keeps working as if its topic were deleted.
        for (const s of topic.subscriptions) this.setConfig(s, { ...s.config, topic: DELETED_TOPIC }, true);
        topic.subscriptions.clear();
        topic.close();
        this.topics.delete(name);
        this.store.deleteTopic(name);
        this.topicSchemas.set(name, undefined);
        this.setTopicChain(name, null);
        this.events?.resourceChanged("topic", "deleted", name);
        dropped.topics++;
      }
    });
    this.schemas.clear(prefix);
    this.iam.clear(prefix);
    return dropped;
  }

  /** Every topic and subscription object, for the operator surface (inspection, metrics). */
  resources(): { topics: Iterable<Topic>; subscriptions: Iterable<Subscription> } {
    return { topics: this.topics.values(), subscriptions: this.subs.values() };
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
    return { sub, consumer: new Consumer({ ...o, maxBatch: this.maxMessagesPerResponse }) };
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

  /** Pull and StreamingPull are refused on a push subscription, as by the real service. */
  private pullable(name: string): Subscription {
    const sub = this.subscription(name);
    if (pushEndpointOf(sub.config)) throw pullOnPush();
    const refusal = exportRefusal(sub.config);
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
  private describe(sub: Subscription): SubscriptionResource {
    const r = sub.topic?.config.messageRetentionDuration;
    return r === undefined ? sub.config : { ...sub.config, topicMessageRetentionDuration: r };
  }

  /**
   * Whether a message published to the topic now would be kept by anything (a subscription, the
   * topic's log); an unknown topic answers true. Lets a transport skip copying message data out
   * of its request buffer when nothing will hold it.
   */
  keepsMessages(topicName: string): boolean {
    const t = this.topics.get(topicName);
    return !t || t.subscriptions.size > 0 || t.logging;
  }

  private topic(name: string): Topic {
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

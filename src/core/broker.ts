/**
 * The façade every transport calls: topic and subscription administration, publish, pull, ack.
 * Each method validates its input with the real service's rules and throws PubSubError.
 */
import type { Clock } from "./clock.ts";
import { Consumer, type ConsumerOptions } from "./consumer.ts";
import { PubSubError, alreadyExists, failedPrecondition, invalid, notFound } from "./errors.ts";
import { ObserverSet, type BrokerObserver } from "./events.ts";
import { applyMask } from "./field-mask.ts";
import { compileFilter } from "./filter.ts";
import { IamPolicies } from "./iam.ts";
import { checkAckIds, checkModifyDeadline, checkPublish } from "./limits.ts";
import { MemoryBudget } from "./memory-budget.ts";
import type { Delivery, MessageInput, StoredMessage } from "./message.ts";
import { DELETED_TOPIC, parseName, parseProject } from "./names.ts";
import { paginate, type Page } from "./paging.ts";
import { normalizePushConfig, pullOnPush, pushEndpointOf } from "./push/push-config.ts";
import { PushDeliveries, pushDeps, type PushOptions, type PushSender } from "./push/push-delivery.ts";
import { SUBSCRIPTION_MASK, TOPIC_MASK, normalizeSubscription, normalizeTopic } from "./resource-rules.ts";
import type { SubscriptionResource, TopicResource } from "./resources.ts";
import { SchemaRegistry } from "./schemas/registry.ts";
import { DELETED_SCHEMA, TopicSchemas } from "./schemas/topic-schema.ts";
import { Subscription } from "./subscription.ts";
import { Topic } from "./topic.ts";

export interface BrokerOptions {
  clock: Clock;
  /** Most messages in one Pull or StreamingPull response. */
  maxMessagesPerResponse?: number;
  /** How long a stream waits to fill a response after a publish; 0 sends at once. */
  fillWaitMs?: number;
  /** How long a Pull without return_immediately waits for messages before answering empty. */
  pullWaitMs?: number;
  /** Held messages are accounted here, and Publish refused past it (default: no budget). */
  memory?: MemoryBudget;
  /** How push subscriptions send; without it they hold their messages (core tests). */
  push?: { sender: PushSender; options?: Partial<PushOptions> };
}

export interface PullHandle {
  result: Promise<Delivery[]>;
  /** The caller went away: stop waiting, deliver nothing. */
  cancel(): void;
}

export class Broker {
  readonly clock: Clock;
  readonly maxMessagesPerResponse: number;
  private readonly fillWaitMs: number;
  private readonly pullWaitMs: number;
  readonly memory: MemoryBudget;
  private topics = new Map<string, Topic>();
  private subs = new Map<string, Subscription>();
  /** Set by shutdown(): what every new stream or Pull is answered. */
  private closing: PubSubError | null = null;
  private topicSchemas: TopicSchemas;
  private push: PushDeliveries;
  readonly schemas: SchemaRegistry;
  readonly iam: IamPolicies;
  private observers = new ObserverSet();

  constructor(o: BrokerOptions) {
    this.clock = o.clock;
    this.memory = o.memory ?? new MemoryBudget({ maxBytes: Infinity, now: () => o.clock.now() });
    this.maxMessagesPerResponse = o.maxMessagesPerResponse ?? 1000;
    this.fillWaitMs = o.fillWaitMs ?? 0;
    this.pullWaitMs = o.pullWaitMs ?? 5000;
    this.schemas = new SchemaRegistry(o.clock);
    this.schemas.onDelete = (name) => this.schemaDeleted(name);
    this.topicSchemas = new TopicSchemas(this.schemas);
    this.iam = new IamPolicies((resource) => this.requireResource(resource));
    this.push = new PushDeliveries(pushDeps(o.clock, o.push, this));
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

  // ---- topics ----

  createTopic(input: TopicResource): TopicResource {
    parseName(input.name, "topics");
    if (this.topics.has(input.name)) throw alreadyExists(input.name);
    const config = normalizeTopic(input);
    const schema = this.topicSchemas.resolve(config);
    const topic = new Topic(config);
    topic.observer = this.events;
    this.topics.set(topic.name, topic);
    this.topicSchemas.set(topic.name, schema);
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
    topic.config = next;
    this.topicSchemas.set(topic.name, schema);
    this.events?.resourceChanged("topic", "updated", topic.name);
    return topic.config;
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

  deleteTopic(name: string): void {
    const topic = this.topic(name);
    for (const s of topic.subscriptions) this.setConfig(s, { ...s.config, topic: DELETED_TOPIC });
    topic.subscriptions.clear();
    this.topics.delete(name);
    this.topicSchemas.set(name, undefined);
    this.iam.drop(name);
    this.events?.resourceChanged("topic", "deleted", name);
  }

  /** Validates and stores the messages once, fans them out, and returns their ids. */
  publish(topicName: string, messages: readonly MessageInput[], requestBytes?: number): string[] {
    const topic = this.topic(topicName);
    const sizes = checkPublish(messages, requestBytes);
    let bytes = 0;
    for (const s of sizes) bytes += s;
    this.memory.admit(sizes.length, bytes);
    return topic.publish(this.topicSchemas.apply(topicName, messages), sizes, this.clock.now());
  }

  // ---- subscriptions ----

  createSubscription(input: SubscriptionResource): SubscriptionResource {
    parseName(input.name, "subscriptions");
    parseName(input.topic, "topics", "topic");
    if (this.subs.has(input.name)) throw alreadyExists(input.name);
    const topic = this.topic(input.topic);
    const config = normalizeSubscription(input);
    config.pushConfig = normalizePushConfig(config.pushConfig);
    const matches = compileFilter(config.filter);
    if (config.deadLetterPolicy) this.topic(config.deadLetterPolicy.deadLetterTopic);
    if (topic.config.messageRetentionDuration) config.topicMessageRetentionDuration = topic.config.messageRetentionDuration;
    const hooks = { deadLetter: (s: Subscription, m: StoredMessage) => this.deadLetter(s, m), budget: this.memory };
    const sub = new Subscription(config, this.clock, hooks, this.fillWaitMs);
    sub.matches = matches;
    sub.observer = this.events;
    this.subs.set(sub.name, sub);
    topic.subscriptions.add(sub);
    this.push.sync(sub);
    this.events?.resourceChanged("subscription", "created", sub.name);
    return sub.config;
  }

  getSubscription(name: string): SubscriptionResource {
    return this.subscription(name).config;
  }

  updateSubscription(input: SubscriptionResource, paths: readonly string[]): SubscriptionResource {
    const sub = this.subscription(input.name);
    const next = normalizeSubscription(applyMask(sub.config, input, paths, SUBSCRIPTION_MASK));
    if (next.deadLetterPolicy) this.topic(next.deadLetterPolicy.deadLetterTopic);
    next.pushConfig = normalizePushConfig(next.pushConfig, sub.config.pushConfig);
    this.setConfig(sub, next);
    this.push.sync(sub);
    return next;
  }

  /** ModifyPushConfig is an update of push_config alone (an empty one makes it a pull subscription). */
  modifyPushConfig(name: string, pushConfig: Record<string, unknown> | undefined): void {
    this.updateSubscription({ ...this.subscription(name).config, pushConfig }, ["push_config"]);
  }

  listSubscriptions(project: string, pageSize?: number, pageToken?: string): Page<SubscriptionResource> {
    const prefix = `projects/${parseProject(project)}/subscriptions/`;
    const all = [...this.subs.values()].filter((s) => s.name.startsWith(prefix)).map((s) => s.config);
    return paginate(all, (s) => s.name, pageSize, pageToken);
  }

  deleteSubscription(name: string): void {
    const sub = this.subscription(name);
    this.subs.delete(name);
    this.topics.get(sub.config.topic)?.subscriptions.delete(sub);
    this.push.detach(sub);
    this.iam.drop(name);
    sub.close(notFound(name));
    this.events?.resourceChanged("subscription", "deleted", name);
  }

  detachSubscription(name: string): void {
    const sub = this.subscription(name);
    this.topics.get(sub.config.topic)?.subscriptions.delete(sub);
    this.setConfig(sub, { ...sub.config, detached: true });
    this.push.detach(sub);
    sub.close(failedPrecondition(`Subscription ${name} is detached.`));
  }

  /** Ends every stream and waiting Pull with UNAVAILABLE (what clients retry on); new ones get it too. */
  shutdown(): void {
    this.closing = new PubSubError("UNAVAILABLE", "The emulator is shutting down.");
    for (const sub of this.subs.values()) sub.close(this.closing);
  }

  /** Stops push delivery (the server is stopping): no new requests, no backoff timers left. */
  stopPush(): void {
    this.push.clear();
  }

  /** Drops every resource, or those of one project (the admin API's reset). */
  reset(project?: string): { topics: number; subscriptions: number } {
    const prefix = project === undefined ? "" : `projects/${parseProject(project)}/`;
    const dropped = { topics: 0, subscriptions: 0 };
    for (const [name, sub] of this.subs) {
      if (!name.startsWith(prefix)) continue;
      this.subs.delete(name);
      this.topics.get(sub.config.topic)?.subscriptions.delete(sub);
      this.push.detach(sub);
      sub.close(new PubSubError("UNAVAILABLE", "The emulator was reset."));
      this.events?.resourceChanged("subscription", "deleted", name);
      dropped.subscriptions++;
    }
    for (const [name, topic] of this.topics) {
      if (!name.startsWith(prefix)) continue;
      // A subscription of another project keeps working as if its topic were deleted.
      for (const s of topic.subscriptions) this.setConfig(s, { ...s.config, topic: DELETED_TOPIC });
      this.topics.delete(name);
      this.topicSchemas.set(name, undefined);
      this.events?.resourceChanged("topic", "deleted", name);
      dropped.topics++;
    }
    this.schemas.clear(prefix);
    this.iam.clear(prefix);
    return dropped;
  }

  /** Every topic and subscription object, for the operator surface (inspection, metrics). */
  resources(): { topics: Iterable<Topic>; subscriptions: Iterable<Subscription> } {
    return { topics: this.topics.values(), subscriptions: this.subs.values() };
  }

  /** Counts for the metrics endpoint. */
  stats(): { topics: number; subscriptions: number; backlog: number; outstanding: number } {
    let backlog = 0;
    let outstanding = 0;
    for (const s of this.subs.values()) {
      backlog += s.backlogSize;
      outstanding += s.outstanding;
    }
    return { topics: this.topics.size, subscriptions: this.subs.size, backlog, outstanding };
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
    let timer: unknown = null;
    let settle!: (d: Delivery[]) => void;
    let fail!: (e: PubSubError) => void;
    const result = new Promise<Delivery[]>((res, rej) => {
      settle = res;
      fail = rej;
    });
    let done = false;
    const finish = (d: Delivery[]) => {
      done = true;
      if (timer !== null) this.clock.cancel(timer);
      settle(d);
    };
    const consumer = new Consumer({
      ackDeadlineSeconds: sub.config.ackDeadlineSeconds,
      maxBatch: Math.min(maxMessages, this.maxMessagesPerResponse),
      oneShot: true,
      deliver: finish,
      close: (e) => {
        if (timer !== null) this.clock.cancel(timer);
        fail(e);
      },
    });
    sub.addConsumer(consumer);
    const cancel = () => {
      sub.removeConsumer(consumer);
      finish([]);
    };
    if (done) return { result, cancel };
    if (returnImmediately) cancel();
    else timer = this.clock.schedule(this.clock.now() + this.pullWaitMs, () => ((timer = null), cancel()));
    return { result, cancel };
  }

  acknowledge(subName: string, ackIds: readonly string[]): string[] {
    checkAckIds(ackIds);
    return this.subscription(subName).ack(ackIds);
  }

  modifyAckDeadline(subName: string, ackIds: readonly string[], seconds: number): string[] {
    checkModifyDeadline(seconds);
    checkAckIds(ackIds);
    return this.subscription(subName).modifyAckDeadline(ackIds, seconds);
  }

  /** A streaming consumer for a subscription; the caller adds it, and removes it when the stream ends. */
  streamConsumer(subName: string, o: Omit<ConsumerOptions, "maxBatch">): { sub: Subscription; consumer: Consumer } {
    if (this.closing) throw this.closing;
    const sub = this.pullable(subName);
    return { sub, consumer: new Consumer({ ...o, maxBatch: this.maxMessagesPerResponse }) };
  }

  /** The subscription object itself, for adapters that hold it across calls (streams). */
  subscription(name: string): Subscription {
    // Stored names were validated on create: validate only on a miss, to tell 3 from 5.
    const sub = this.subs.get(name);
    if (sub) return sub;
    parseName(name, "subscriptions", "subscription");
    throw notFound(name);
  }

  /**
   * Throws NOT_FOUND unless `resource` names an existing topic, subscription, snapshot or schema:
   * the IAM methods' lookup (snapshots join with one line when they exist).
   */
  requireResource(resource: string): void {
    const kind = (resource ?? "").split("/")[2];
    if (kind === "topics") this.topic(resource);
    else if (kind === "subscriptions") this.subscription(resource);
    else if (kind === "schemas") this.schemas.get(resource, "resource");
    else if (kind === "snapshots") {
      parseName(resource, "snapshots", "resource");
      throw notFound(resource);
    } else throw invalid(`Invalid resource (resource=${String(resource).slice(0, 200)}): expected a topic, subscription, snapshot or schema name.`);
  }

  /** Pull and StreamingPull are refused on a push subscription, as by the real service. */
  private pullable(name: string): Subscription {
    const sub = this.subscription(name);
    if (pushEndpointOf(sub.config)) throw pullOnPush();
    return sub;
  }

  /** Topics of a deleted schema report `_deleted-schema_`, and publishing to them fails. */
  private schemaDeleted(name: string): void {
    this.iam.drop(name);
    for (const topicName of this.topicSchemas.schemaDeleted(name)) {
      const topic = this.topics.get(topicName);
      if (topic) topic.config = { ...topic.config, schemaSettings: { ...(topic.config.schemaSettings as object), schema: DELETED_SCHEMA } };
    }
  }

  private topic(name: string): Topic {
    const topic = this.topics.get(name);
    if (topic) return topic;
    parseName(name, "topics", "topic");
    throw notFound(name);
  }

  /** The one place a subscription's config changes after creation, so observers hear of each. */
  private setConfig(sub: Subscription, config: SubscriptionResource): void {
    sub.config = config;
    this.events?.resourceChanged("subscription", "updated", sub.name);
  }

  /** Dead-lettering republishes to the policy's topic; false (keep redelivering) if it is gone. */
  private deadLetter(sub: Subscription, msg: StoredMessage): boolean {
    const dlq = sub.config.deadLetterPolicy && this.topics.get(sub.config.deadLetterPolicy.deadLetterTopic);
    if (!dlq) return false;
    this.events?.deadLettered(sub.name, msg, dlq.name);
    dlq.publish([msg], [msg.size], this.clock.now());
    return true;
  }
}

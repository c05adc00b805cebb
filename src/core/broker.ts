/**
 * The façade every transport calls: topic and subscription administration, publish, pull, ack.
 * Each method validates its input with the real service's rules and throws PubSubError.
 */
import type { Clock } from "./clock.ts";
import { Consumer, type ConsumerOptions } from "./consumer.ts";
import { PubSubError, alreadyExists, failedPrecondition, notFound } from "./errors.ts";
import { ObserverSet, type BrokerObserver } from "./events.ts";
import { applyMask } from "./field-mask.ts";
import { compileFilter } from "./filter.ts";
import { checkAckIds, checkModifyDeadline, checkPublish } from "./limits.ts";
import type { Delivery, MessageInput, StoredMessage } from "./message.ts";
import { DELETED_TOPIC, parseName, parseProject } from "./names.ts";
import { paginate, type Page } from "./paging.ts";
import { SUBSCRIPTION_MASK, TOPIC_MASK, normalizeSubscription, normalizeTopic } from "./resource-rules.ts";
import type { SubscriptionResource, TopicResource } from "./resources.ts";
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
  private topics = new Map<string, Topic>();
  private subs = new Map<string, Subscription>();
  private observers = new ObserverSet();

  constructor(o: BrokerOptions) {
    this.clock = o.clock;
    this.maxMessagesPerResponse = o.maxMessagesPerResponse ?? 1000;
    this.fillWaitMs = o.fillWaitMs ?? 0;
    this.pullWaitMs = o.pullWaitMs ?? 5000;
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
    const topic = new Topic(normalizeTopic(input));
    topic.observer = this.events;
    this.topics.set(topic.name, topic);
    this.events?.resourceChanged("topic", "created", topic.name);
    return topic.config;
  }

  getTopic(name: string): TopicResource {
    return this.topic(name).config;
  }

  updateTopic(input: TopicResource, paths: readonly string[]): TopicResource {
    const topic = this.topic(input.name);
    topic.config = normalizeTopic(applyMask(topic.config, input, paths, TOPIC_MASK));
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
    this.events?.resourceChanged("topic", "deleted", name);
  }

  /** Validates and stores the messages once, fans them out, and returns their ids. */
  publish(topicName: string, messages: readonly MessageInput[], requestBytes?: number): string[] {
    const topic = this.topic(topicName);
    const sizes = checkPublish(messages, requestBytes);
    return topic.publish(messages, sizes, this.clock.now());
  }

  // ---- subscriptions ----

  createSubscription(input: SubscriptionResource): SubscriptionResource {
    parseName(input.name, "subscriptions");
    parseName(input.topic, "topics", "topic");
    if (this.subs.has(input.name)) throw alreadyExists(input.name);
    const topic = this.topic(input.topic);
    const config = normalizeSubscription(input);
    const matches = compileFilter(config.filter);
    if (config.deadLetterPolicy) this.topic(config.deadLetterPolicy.deadLetterTopic);
    if (topic.config.messageRetentionDuration) config.topicMessageRetentionDuration = topic.config.messageRetentionDuration;
    const sub = new Subscription(config, this.clock, { deadLetter: (s, m) => this.deadLetter(s, m) }, this.fillWaitMs);
    sub.matches = matches;
    sub.observer = this.events;
    this.subs.set(sub.name, sub);
    topic.subscriptions.add(sub);
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
    this.setConfig(sub, next);
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
    sub.close(notFound(name));
    this.events?.resourceChanged("subscription", "deleted", name);
  }

  detachSubscription(name: string): void {
    const sub = this.subscription(name);
    this.topics.get(sub.config.topic)?.subscriptions.delete(sub);
    this.setConfig(sub, { ...sub.config, detached: true });
    sub.close(failedPrecondition(`Subscription ${name} is detached.`));
  }

  /** Drops every topic and subscription, or those of one project (the admin API's reset). */
  reset(project?: string): { topics: number; subscriptions: number } {
    const prefix = project === undefined ? "" : `projects/${parseProject(project)}/`;
    const dropped = { topics: 0, subscriptions: 0 };
    for (const [name, sub] of this.subs) {
      if (!name.startsWith(prefix)) continue;
      this.subs.delete(name);
      this.topics.get(sub.config.topic)?.subscriptions.delete(sub);
      sub.close(new PubSubError("UNAVAILABLE", "The emulator was reset."));
      this.events?.resourceChanged("subscription", "deleted", name);
      dropped.subscriptions++;
    }
    for (const [name, topic] of this.topics) {
      if (!name.startsWith(prefix)) continue;
      // A subscription of another project keeps working as if its topic were deleted.
      for (const s of topic.subscriptions) this.setConfig(s, { ...s.config, topic: DELETED_TOPIC });
      this.topics.delete(name);
      this.events?.resourceChanged("topic", "deleted", name);
      dropped.topics++;
    }
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
    const sub = this.subscription(subName);
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
    const sub = this.subscription(subName);
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

/**
 * The topics by name and their verbs: administration (create, get, update, list, delete) and
 * publish. The registry keeps lookup and removal; what a topic does with a message is Topic's.
 * Each topic holds its resolved schema and its transform chain, which its publish stages read.
 */
import type { Clock } from "../clock.ts";
import { Registry } from "../registry.ts";
import { alreadyExists } from "../errors.ts";
import type { BrokerObserver } from "../events.ts";
import { Collection, type Lifecycle, type Removal } from "../lifecycle.ts";
import type { MemoryBudget } from "../memory-budget.ts";
import type { MessageInput } from "../message.ts";
import type { TopicResource } from "../resources.ts";
import { applyMask } from "../rules/field-mask.ts";
import { checkPublish } from "../rules/limits.ts";
import { DELETED_TOPIC, parseName, parseProject } from "../rules/names.ts";
import { paginate, type Page } from "../rules/paging.ts";
import { TOPIC_MASK, keptTopic, normalizeTopic } from "../rules/resource-rules.ts";
import { DELETED_SCHEMA, type TopicSchemas } from "../schemas/topic-schema.ts";
import { publishStages, runPublishStages, type PublishBatch } from "../stages/stages.ts";
import type { TransformBindings } from "../stages/transform-bindings.ts";
import { transformAtPublishAsync, transformPublishStage, type TransformedBatch } from "../stages/transforms.ts";
import type { Store } from "../store/store.ts";
import type { Subscription } from "../subscription/subscription.ts";
import type { CausalWake } from "./causal-wake.ts";
import type { Snapshots } from "./snapshots.ts";
import { Topic } from "./topic.ts";

/** A topic whose fan-out list holds the broker's subscriptions. */
export type SubTopic = Topic<Subscription>;

export interface TopicsDeps {
  store: Store;
  clock: Clock;
  events: () => BrokerObserver | null;
  /** Most topics per project. */
  quota: number;
  memory: MemoryBudget;
  schemas: TopicSchemas;
  transforms: TransformBindings;
  snapshots: Snapshots;
  wake: CausalWake | null;
  iam: Lifecycle<SubTopic, TopicResource>;
  /** Bounds how long a Publish's answer waits for its subscriptions' transforms (BrokerOptions.answerWait). */
  answerWait?: (prepared: Promise<unknown>) => Promise<unknown>;
}

export class Topics extends Registry<SubTopic, TopicResource> {
  protected readonly all: Collection<SubTopic, TopicResource>;
  /** Per topic, the last asynchronous Publish: the next one waits for it, so publishes are stored in the order they came. */
  private publishTails = new Map<string, Promise<unknown>>();
  /** Bytes of Publishes on the asynchronous path not yet stored: the memory budget counts them. */
  private waitingBytes = 0;

  constructor(private d: TopicsDeps) {
    super("topics", "topic");
    this.all = new Collection<SubTopic, TopicResource>("topic", d.events, [
      publishStages<SubTopic>([
        { name: "transforms", of: (t) => (t.config.messageTransforms?.length ? transformPublishStage(() => t.transform) : null) },
        { name: "schema", of: (t) => (t.config.schemaSettings ? d.schemas.stage(t) : null) },
      ]),
      d.transforms.topics,
      d.iam,
    ]);
  }

  private newTopic(config: TopicResource): SubTopic {
    const topic = new Topic<Subscription>(config, this.d.store, this.d.clock);
    topic.wake = this.d.wake;
    return topic;
  }

  /** A stored topic at start: its schema resolved again (a schema gone since reads `_deleted-schema_`). */
  restore(stored: TopicResource): void {
    let t = keptTopic(stored);
    const schema = this.d.schemas.restore(t);
    if (schema?.schema === DELETED_SCHEMA && (t.schemaSettings as { schema?: string }).schema !== DELETED_SCHEMA) {
      t = { ...t, schemaSettings: { ...(t.schemaSettings as object), schema: DELETED_SCHEMA } };
      this.d.store.putTopic(t);
    }
    const topic = this.newTopic(t);
    topic.schema = schema;
    this.all.add(topic, "restored");
  }

  create(input: TopicResource): TopicResource {
    parseName(input.name, "topics");
    if (this.all.has(input.name)) throw alreadyExists(input.name);
    const config = normalizeTopic(input);
    const schema = this.d.schemas.resolve(config);
    this.all.admit(input.name, "topics", this.d.quota);
    const chain = this.d.transforms.compile(config.messageTransforms);
    const topic = this.newTopic(config);
    topic.observer = this.d.events();
    this.d.store.putTopic(topic.config);
    topic.schema = schema;
    this.d.transforms.setTopic(topic, chain);
    this.all.add(topic, "created");
    return topic.config;
  }

  get(name: string): TopicResource {
    return this.lookup(name).config;
  }

  update(input: TopicResource, paths: readonly string[]): TopicResource {
    const topic = this.lookup(input.name);
    const next = normalizeTopic(applyMask(topic.config, input, paths, TOPIC_MASK));
    const schema = this.d.schemas.resolve(next);
    const chain = this.d.transforms.compile(next.messageTransforms);
    const prev = topic.config;
    this.d.store.putTopic(next);
    topic.configure(next);
    topic.schema = schema;
    this.d.transforms.setTopic(topic, chain);
    this.all.updated(topic, prev);
    this.d.events()?.resourceChanged("topic", "updated", topic.name);
    return next;
  }

  list(project: string, pageSize?: number, pageToken?: string): Page<TopicResource> {
    const prefix = `projects/${parseProject(project)}/topics/`;
    const all = [...this.all.values()].filter((t) => t.name.startsWith(prefix)).map((t) => t.config);
    return paginate(all, (t) => t.name, pageSize, pageToken);
  }

  listSubscriptions(topicName: string, pageSize?: number, pageToken?: string): Page<string> {
    const names = [...this.lookup(topicName).subscriptions].map((s) => s.name);
    return paginate(names, (n) => n, pageSize, pageToken);
  }

  listSnapshots(topicName: string, pageSize?: number, pageToken?: string): Page<string> {
    return this.d.snapshots.listForTopic(this.lookup(topicName), pageSize, pageToken);
  }

  /** Its subscriptions stay (naming _deleted-topic_) with what they hold; its log and snapshots' topic go. */
  delete(name: string): void {
    const topic = this.lookup(name);
    this.d.store.transaction(() => this.remove(topic, "deleted"));
  }

  /**
   * The one removal path of a topic (delete, reset): its subscriptions stay, naming
   * _deleted-topic_; its log goes, and so does its snapshots' topic.
   */
  remove(topic: SubTopic, why: Removal): void {
    this.all.remove(topic, why, () => {
      for (const s of topic.subscriptions) s.reconfigure({ ...s.config, topic: DELETED_TOPIC }, true);
      if (why === "deleted") this.d.snapshots.topicDeleted(topic);
      this.d.store.deleteTopic(topic.name);
      topic.subscriptions.clear();
      topic.close();
    });
  }

  /** Topics of a deleted schema report `_deleted-schema_`, and publishing to them fails. */
  schemaDeleted(name: string): void {
    for (const topic of this.all.values()) {
      if (topic.schema?.schema !== name) continue;
      topic.schema.schema = DELETED_SCHEMA;
      const next = { ...topic.config, schemaSettings: { ...(topic.config.schemaSettings as object), schema: DELETED_SCHEMA } };
      this.d.store.putTopic(next);
      topic.config = next;
    }
  }

  /** Validates and stores the messages once, fans them out, and returns their ids. */
  publish(topicName: string, messages: readonly MessageInput[], requestBytes?: number): string[] {
    return this.publishSeqs(topicName, messages, requestBytes).map(String);
  }

  /**
   * publish(), returning each message's seq: its id is the seq's decimal form, which the gRPC
   * codec writes without making the string (a string per message was ≈ 2–7 % of a Publish).
   */
  publishSeqs(topicName: string, messages: readonly MessageInput[], requestBytes?: number): number[] {
    const topic = this.lookup(topicName);
    const sizes = checkPublish(messages, requestBytes);
    if (topic.stages.length !== 0) return this.publishStaged(topic, { messages, sizes, filtered: [] });
    this.admit(sizes);
    return topic.publish(messages, sizes, this.d.clock.now());
  }

  /**
   * What the last Publish to a topic made its subscriptions run at publish (their transforms in
   * the worker pool): its answer waits for it. Null for nothing.
   */
  takePrepared(topicName: string): Promise<unknown> | null {
    return this.bounded(this.find(topicName)?.takePrepared() ?? null);
  }

  private bounded(prepared: Promise<unknown> | null): Promise<unknown> | null {
    return prepared && this.d.answerWait ? this.d.answerWait(prepared) : prepared;
  }

  /** Whether a publish to the topic may leave its messages held (Topic.keepsMessages); true for a topic that is not there. */
  keepsMessages(topicName: string): boolean {
    return this.find(topicName)?.keepsMessages ?? true;
  }

  /** Whether a topic's Publish must go through publishAsync (its transforms call a model or run in the worker pool). */
  publishesAsync(topicName: string): boolean {
    const t = this.d.transforms.asyncTopics;
    return t.size !== 0 && t.has(topicName);
  }

  /**
   * Publish to a topic whose transforms call a model or run in the worker pool: the request is
   * checked at once, its messages' chains run (in the pool the Publish's messages cross together,
   * and at once: the pool runs a chain's batches in the order they came; with models concurrently,
   * after the Publish before), then what they made goes through the other stages and is stored.
   * Publishes to one topic are stored in the order they came (each waits for the one before), so
   * ordering keys keep their order across concurrent Publish calls. The answer also waits for the
   * subscriptions' transforms that run at publish (subscription/early.ts). Resolves to the
   * messages' seqs, as publishSeqs().
   */
  publishAsync(topicName: string, messages: readonly MessageInput[], requestBytes?: number): Promise<number[]> {
    const chain = this.lookup(topicName).transform;
    const sizes = checkPublish(messages, requestBytes);
    // Held before they are stored (their transforms run or queue): counted against the budget too.
    let bytes = 0;
    for (const size of sizes) bytes += size;
    this.d.memory.admit(sizes.length, bytes, this.waitingBytes);
    this.waitingBytes += bytes;
    const pooled = chain?.pooled ? transformAtPublishAsync(chain, messages, this.d.clock.now()) : null;
    // Its failure is the Publish's, met when its turn to store comes (not an unhandled rejection before).
    pooled?.catch(() => {});
    const before = this.publishTails.get(topicName);
    const store = () => this.publishTransformed(topicName, messages, sizes, pooled);
    const stored = before ? before.then(store) : store();
    const tail = stored.then(
      () => {},
      () => {},
    );
    this.publishTails.set(topicName, tail);
    void tail.then(() => {
      this.waitingBytes -= bytes;
      if (this.publishTails.get(topicName) === tail) this.publishTails.delete(topicName);
    });
    return stored.then(async ({ ids, prepared }) => {
      if (prepared) await prepared;
      return ids;
    });
  }

  private async publishTransformed(
    topicName: string,
    messages: readonly MessageInput[],
    sizes: number[],
    pooled: Promise<TransformedBatch> | null,
  ): Promise<{ ids: number[]; prepared: Promise<unknown> | null }> {
    const topic = this.lookup(topicName);
    const chain = topic.transform;
    let target = topic;
    let ids: number[];
    if (!pooled && !chain?.async) ids = this.publishStaged(topic, { messages, sizes, filtered: [] });
    else {
      const t = await (pooled ?? transformAtPublishAsync(chain!, messages, this.d.clock.now()));
      // The topic may have gone (or come again) while the transforms ran: what is there now is used.
      target = this.lookup(topicName);
      ids = this.publishStaged(target, { messages: t.kept, sizes: t.sizes, filtered: t.filtered }, "transforms");
    }
    return { ids, prepared: this.bounded(target.takePrepared()) };
  }

  /** Publish is refused past the memory budget. */
  private admit(sizes: readonly number[]): void {
    let bytes = 0;
    for (const s of sizes) bytes += s;
    this.d.memory.admit(sizes.length, bytes);
  }

  /**
   * Publish through the topic's stages: what they return is stored; a message a stage filtered
   * out is acknowledged with an id taken from the same sequence that is never stored, so ids stay
   * unique.
   */
  private publishStaged(topic: SubTopic, batch: PublishBatch, done?: string): number[] {
    const stages = done ? topic.stages.filter((s) => s.name !== done) : topic.stages;
    const { messages, sizes, filtered } = runPublishStages(stages, batch, this.d.clock.now());
    let stored: number[] = [];
    if (messages.length > 0) {
      this.admit(sizes);
      stored = topic.publish(messages, sizes, this.d.clock.now());
    }
    if (filtered.length === 0) return stored;
    let seq = this.d.store.skipSeqs(filtered.length);
    // One seq per message of the request: those the batch still has, and those filtered before it.
    const seqs = new Array<number>(batch.messages.length + batch.filtered.length);
    let f = 0;
    let k = 0;
    for (let i = 0; i < seqs.length; i++) seqs[i] = filtered[f] === i ? (f++, seq++) : stored[k++];
    return seqs;
  }
}

/**
 * The composition of the domain: it builds the registries (Topics, Subscriptions, snapshots,
 * schemas, IAM) and wires their features, rebuilds them from the store, and keeps the verbs that
 * cross resources (snapshots, seek, detach, reset) and the read-only views. Transports call the
 * registries' own verbs (broker.topics.publish, broker.subscriptions.pull…) for the rest.
 */
import type { Clock } from "./clock.ts";
import { CausalWake, type Defer } from "./topic/causal-wake.ts";
import { failedPrecondition, invalid } from "./errors.ts";
import { ObserverSet, type BrokerObserver } from "./events.ts";
import { IamPolicies } from "./iam.ts";
import { MemoryBudget } from "./memory-budget.ts";
import type { MessageInput } from "./message.ts";
import { parseProject } from "./rules/names.ts";
import type { Page } from "./rules/paging.ts";
import { deliveryRuntimes, type DeliveryOptions } from "./delivery/runtimes.ts";
import { TransformBindings } from "./stages/transform-bindings.ts";
import { projectQuotas, type ProjectQuotas } from "./rules/quotas.ts";
import { SchemaRegistry } from "./schemas/registry.ts";
import { TopicSchemas } from "./schemas/topic-schema.ts";
import { seekToSnapshot, seekToTime } from "./topic/seek.ts";
import { Snapshots, type SnapshotResource } from "./topic/snapshots.ts";
import { MemoryStore } from "./store/memory-store.ts";
import type { Store } from "./store/store.ts";
import type { HeldMemory, HeldStore } from "./store/held-memory.ts";
import type { TopicResource } from "./resources.ts";
import type { Subscription, SubscriptionView } from "./subscription/subscription.ts";
import { Subscriptions } from "./subscription/subscriptions.ts";
import { Topics, type SubTopic } from "./topic/topics.ts";
import type { AiInferenceCaller, CompressionCodec, TransformEngine } from "./stages/transform-engine.ts";
import type { ChainResult, TransformChain } from "./stages/transforms.ts";

/** What the operator surface reads of a topic. */
export interface TopicView {
  readonly name: string;
  readonly config: Readonly<TopicResource>;
  readonly subscriptions: number;
}

export interface BrokerOptions extends DeliveryOptions<Broker> {
  clock: Clock;
  /** Where topics, subscriptions, snapshots, schemas, IAM policies and messages are kept, and the memory they are held in; in memory by default. */
  store?: HeldStore;
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
   * How long a Publish's answer waits for the subscriptions' transforms that run at publish (the
   * server bounds it on a real timer, so a UDF at its time limit on every message cannot hold a
   * publisher past its deadline into a retry); without it, until they are done.
   */
  answerWait?: (prepared: Promise<unknown>) => Promise<unknown>;
  /**
   * Causal delivery: how a publish's wake-up of its subscriptions is put off until the publisher
   * has its answer (a real timer, src/core/topic/causal-wake.ts); without it they are woken at once.
   */
  deferDelivery?: Defer;
}

export class Broker {
  readonly clock: Clock;
  readonly store: Store;
  /** What the store holds in memory: the memory budget reads it, the server tunes its views. */
  readonly held: HeldMemory;
  readonly quotas: ProjectQuotas;
  readonly memory: MemoryBudget;
  readonly schemas: SchemaRegistry;
  readonly iam: IamPolicies;
  readonly topics: Topics;
  readonly subscriptions: Subscriptions;
  private snapshots: Snapshots;
  private observers = new ObserverSet();
  private transforms: TransformBindings;

  constructor(o: BrokerOptions) {
    this.clock = o.clock;
    this.transforms = new TransformBindings(o.transforms ?? null, () => o.clock.now(), o.compression ?? null, o.inference ?? null);
    const store = o.store ?? new MemoryStore();
    this.store = store;
    this.held = store;
    const wake = o.deferDelivery ? new CausalWake(o.deferDelivery) : null;
    this.quotas = projectQuotas(o.quotas);
    const events = () => this.observers.current;
    this.snapshots = new Snapshots(this.store, this.clock, events, this.quotas.snapshots);
    this.memory = o.memory ?? new MemoryBudget({ maxBytes: Infinity, now: () => o.clock.now() });
    this.memory.track(this.held);
    this.schemas = new SchemaRegistry(o.clock, this.store, this.quotas.schemas);
    this.schemas.onDelete = (name) => {
      this.iam.drop(name);
      this.topics.schemaDeleted(name);
    };
    this.iam = new IamPolicies((resource) => this.requireResource(resource), this.store);
    const shared = { store: this.store, clock: this.clock, events, transforms: this.transforms, iam: this.iam.lifecycle, wake };
    this.topics = new Topics({
      ...shared,
      quota: this.quotas.topics,
      memory: this.memory,
      schemas: new TopicSchemas(this.schemas),
      snapshots: this.snapshots,
      answerWait: o.answerWait,
    });
    this.subscriptions = new Subscriptions({
      ...shared,
      quota: this.quotas.subscriptions,
      topics: this.topics,
      runtimes: (settle) => deliveryRuntimes(o.clock, o, this, settle),
      fillWaitMs: o.fillWaitMs ?? 0,
      pullWaitMs: o.pullWaitMs ?? 5000,
      maxMessagesPerResponse: o.maxMessagesPerResponse ?? 1000,
    });
    this.restore();
  }

  /** Attaches an observer of broker events; the returned function detaches it. */
  observe(o: BrokerObserver): () => void {
    return this.observers.attach(o, () => {
      const current = this.observers.current;
      for (const t of this.topics.values()) t.observer = current;
      for (const s of this.subscriptions.values()) s.observer = current;
    });
  }

  /**
   * Rebuilds schemas, topics (whose schema settings resolve against them), subscriptions (with
   * what they hold), snapshots and then the resources' IAM policies from what the store kept.
   */
  private restore(): void {
    const kept = this.store.contents();
    this.schemas.restore(kept.schemas);
    for (const t of kept.topics) this.topics.restore(t);
    for (const s of kept.subscriptions) this.subscriptions.restore(s);
    for (const s of kept.snapshots) this.snapshots.restore(s, this.topics.find(s.topic) ?? null);
    for (const t of this.topics.values()) t.configure(t.config);
    this.iam.restore(kept.policies);
  }

  /** Whether a resource has transforms the engine (not loaded yet) should run. */
  needsTransformEngine(): boolean {
    return this.transforms.needsEngine(this.topics.values(), this.subscriptions.values());
  }

  /** Loads the engine once, then compiles the transforms of every resource that has some. */
  ensureTransformEngine(): Promise<void> {
    return this.transforms.ensureEngine(() => this.topics.values(), () => this.subscriptions.values());
  }

  /** The loaded transform engine; null until ensureTransformEngine (or without a loader). */
  get transformEngine(): TransformEngine | null {
    return this.transforms.engine;
  }

  /** The transforms of a topic or subscription as the operator surface shows them. */
  transformsOf(name: string): TransformChain | null {
    return this.topics.find(name)?.transform ?? this.subscriptions.find(name)?.transform ?? null;
  }

  /** TestMessageTransforms: ad hoc transforms, or those of a topic or a subscription, traced on one message. */
  testTransforms(project: string, message: MessageInput, source: { transforms?: unknown[]; topic?: string; subscription?: string }): ChainResult[] | Promise<ChainResult[]> {
    return this.transforms.test(project, message, source, { topic: (n) => this.topics.lookup(n), subscription: (n) => this.subscriptions.lookup(n) });
  }

  /** ValidateMessageTransform: one transform, checked and compiled as a create would. */
  validateTransform(project: string, transform: unknown): void {
    this.transforms.validate(project, transform);
  }

  /** Detached: off its topic, everything it held dropped; Pull and StreamingPull fail. */
  detachSubscription(name: string): void {
    const sub = this.subscriptions.lookup(name);
    this.subscriptions.detached(sub);
    this.store.transaction(() => {
      sub.reconfigure({ ...sub.config, detached: true }, true);
      sub.close(failedPrecondition(`Subscription ${name} is detached.`));
    });
  }

  // ---- snapshots and seek ----

  /** `tags` are input only: checked, never kept. */
  createSnapshot(name: string, subscription: string, labels?: Record<string, string>, tags?: Record<string, string>): SnapshotResource {
    return this.snapshots.create(name, this.subscriptions.lookup(subscription, "subscription"), labels, tags);
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
    const sub = this.subscriptions.lookup(subName);
    if (sub.config.detached) throw failedPrecondition(`Subscription ${subName} is detached.`);
    sub.lastActive = this.clock.now();
    if (target.snapshot !== undefined) {
      const snap = this.snapshots.forSeek(target.snapshot);
      seekToSnapshot(sub, snap.record, snap.topic);
    } else if (target.time !== undefined) {
      if (!Number.isFinite(target.time)) throw invalid("Invalid time in SeekRequest.");
      seekToTime(sub, target.time, this.clock.now());
    } else throw invalid("A SeekRequest must set either time or snapshot.");
    this.observers.current?.seeked(subName, target);
  }

  /** Ends every stream and waiting Pull with UNAVAILABLE (what clients retry on); new ones get it too. */
  shutdown(): void {
    this.subscriptions.shutdown();
  }

  /** The server is stopping: no new push or export requests, no backoff timers left. */
  stopDeliveries(): void {
    this.subscriptions.stopped();
  }

  /** Drops every resource, or those of one project (the admin API's reset). */
  reset(project?: string): { topics: number; subscriptions: number } {
    const prefix = project === undefined ? "" : `projects/${parseProject(project)}/`;
    const dropped = { topics: 0, subscriptions: 0 };
    this.store.transaction(() => {
      for (const sub of [...this.subscriptions.values()]) {
        if (!sub.name.startsWith(prefix)) continue;
        this.subscriptions.remove(sub, "reset");
        dropped.subscriptions++;
      }
      this.snapshots.clear(prefix);
      for (const topic of [...this.topics.values()]) {
        if (!topic.name.startsWith(prefix)) continue;
        // A subscription of another project keeps working as if its topic were deleted.
        this.topics.remove(topic, "reset");
        dropped.topics++;
      }
    });
    this.schemas.clear(prefix);
    this.iam.clear(prefix);
    return dropped;
  }

  // ---- views ----

  /** Every topic and subscription object (core tests). */
  resources(): { topics: Iterable<SubTopic>; subscriptions: Iterable<Subscription> } {
    return { topics: this.topics.values(), subscriptions: this.subscriptions.values() };
  }

  /** What the operator surface (inspection, metrics) reads: read-only views, never the live objects. */
  *topicViews(): Iterable<TopicView> {
    for (const t of this.topics.values()) yield { name: t.name, config: t.config, subscriptions: t.subscriptions.size };
  }

  *subscriptionViews(): Iterable<SubscriptionView> {
    for (const s of this.subscriptions.values()) yield s.view();
  }

  /** One subscription's view; NOT_FOUND (or INVALID_ARGUMENT for a bad name) as its RPCs answer. */
  subscriptionView(name: string): SubscriptionView {
    return this.subscriptions.lookup(name).view();
  }

  /** Counts for the metrics endpoint. */
  stats() {
    let backlog = 0;
    let outstanding = 0;
    for (const s of this.subscriptions.values()) {
      backlog += s.backlogSize;
      outstanding += s.outstanding;
    }
    return {
      topics: this.topics.size,
      subscriptions: this.subscriptions.size,
      snapshots: this.snapshots.size,
      backlog,
      outstanding,
      heldMessages: this.held.heldMessages,
      heldBytes: this.held.heldBytes,
    };
  }

  /**
   * Throws NOT_FOUND unless `resource` names an existing topic, subscription, snapshot or schema:
   * the IAM methods' lookup.
   */
  requireResource(resource: string): void {
    const kind = (resource ?? "").split("/")[2];
    if (kind === "topics") this.topics.lookup(resource);
    else if (kind === "subscriptions") this.subscriptions.lookup(resource, "resource");
    else if (kind === "schemas") this.schemas.get(resource, "resource");
    else if (kind === "snapshots") this.snapshots.resource(resource);
    else throw invalid(`Invalid resource (resource=${String(resource).slice(0, 200)}): expected a topic, subscription, snapshot or schema name.`);
  }
}

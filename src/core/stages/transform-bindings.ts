/**
 * Which compiled message_transforms each topic and subscription runs, and the engine they run on:
 * loaded once, on the first need, so a server whose resources have none never loads it. Each topic
 * and subscription holds its own chain (Topic.transform on the publish path, Subscription.transform
 * on the delivery path); the lifecycle features dispose a resource's chain when it goes.
 */
import { PubSubError, invalid } from "../errors.ts";
import type { Lifecycle } from "../lifecycle.ts";
import type { MessageInput } from "../message.ts";
import { parseProject } from "../rules/names.ts";
import type { SubscriptionResource, TopicResource } from "../resources.ts";
import type { Subscription } from "../subscription/subscription.ts";
import type { Topic } from "../topic/topic.ts";
import type { AiInferenceCaller, CompressionCodec, TransformEngine } from "./transform-engine.ts";
import { compileTransforms, hasJavaScriptUdf, udfMetadata, type ChainResult, type TransformChain } from "./transforms.ts";

export class TransformBindings {
  engine: TransformEngine | null = null;
  /** The topics whose chain calls a model: their Publish runs asynchronously (Topics.publishAsync). */
  readonly asyncTopics = new Set<string>();

  constructor(
    readonly load: (() => Promise<TransformEngine>) | null,
    private now: () => number,
    /** The Compression transform's codec; without it compression steps pass messages on. */
    readonly compression: CompressionCodec | null = null,
    /** Calls the models of ai_inference transforms; without it they pass messages on. */
    readonly inference: AiInferenceCaller | null = null,
  ) {}

  /** Compiles a create's or an update's transforms (INVALID_ARGUMENT on a bad one). */
  compile(list: readonly unknown[] | undefined, field?: string): TransformChain | null {
    return compileTransforms(list, this, field);
  }

  /** A stored resource's transforms compiled again; one this engine refuses runs none (never fails a restart). */
  restored(list: readonly unknown[] | undefined): TransformChain | null {
    try {
      return compileTransforms(list, this);
    } catch {
      return null;
    }
  }

  /** Gives a topic or subscription its chain, disposing the one it replaces. */
  set(r: { transform: TransformChain | null }, chain: TransformChain | null): void {
    if (r.transform !== chain) r.transform?.dispose();
    r.transform = chain;
  }

  /** A topic's chain, and whether its Publish runs asynchronously (its chain calls a model). */
  setTopic(t: Topic, chain: TransformChain | null): void {
    this.set(t, chain);
    if (chain?.async) this.asyncTopics.add(t.name);
    else this.asyncTopics.delete(t.name);
  }

  readonly topics: Lifecycle<Topic, TopicResource> = {
    restored: (t) => this.setTopic(t, this.restored(t.config.messageTransforms)),
    removed: (t) => this.setTopic(t, null),
  };

  readonly subscriptions: Lifecycle<Subscription, SubscriptionResource> = {
    removed: (s) => this.set(s, null),
  };

  /** Whether a resource has JavaScript UDFs the engine (not loaded yet) should run. */
  needsEngine(topics: Iterable<Topic>, subs: Iterable<Subscription>): boolean {
    if (this.engine || !this.load) return false;
    for (const t of topics) if (hasJavaScriptUdf(t.config.messageTransforms)) return true;
    for (const s of subs) if (hasJavaScriptUdf(s.config.messageTransforms)) return true;
    return false;
  }

  /** Loads the engine once, then compiles the transforms of every resource that has some. */
  async ensureEngine(topics: () => Iterable<Topic>, subs: () => Iterable<Subscription>): Promise<void> {
    if (this.engine || !this.load) return;
    const engine = await this.load();
    if (this.engine) return;
    this.engine = engine;
    for (const t of topics()) this.setTopic(t, this.restored(t.config.messageTransforms));
    for (const s of subs()) this.set(s, this.restored(s.config.messageTransforms));
  }

  /**
   * TestMessageTransforms: `transforms` (ad hoc), or those of a topic or a subscription, traced on
   * one message. Validation errors are INVALID_ARGUMENT; a missing resource NOT_FOUND (`find`).
   */
  test(
    project: string,
    message: MessageInput,
    source: { transforms?: unknown[]; topic?: string; subscription?: string },
    find: { topic(name: string): Topic; subscription(name: string): Subscription },
  ): ChainResult[] | Promise<ChainResult[]> {
    parseProject(project);
    if (!this.engine) throw new PubSubError("UNIMPLEMENTED", "This emulator was started without a JavaScript engine for message transforms.");
    const meta = () => udfMetadata(undefined, this.now(), message.orderingKey);
    let chain: TransformChain | null;
    if (source.topic) chain = find.topic(source.topic).transform;
    else if (source.subscription) chain = find.subscription(source.subscription).transform;
    else if (source.transforms?.length) {
      const adHoc = compileTransforms(source.transforms, this);
      let traced: ChainResult[] | Promise<ChainResult[]> = [];
      try {
        traced = adHoc ? adHoc.trace(message.data, message.attributes, meta()) : [];
        return traced;
      } finally {
        // A trace waiting for a model keeps its UDFs until it is done.
        if (traced instanceof Promise) void traced.finally(() => adHoc?.dispose());
        else adHoc?.dispose();
      }
    } else throw invalid("One of message_transforms, topic or subscription must be set.");
    return chain ? chain.trace(message.data, message.attributes, meta()) : [];
  }

  /** ValidateMessageTransform: one transform, checked and compiled as a create would. */
  validate(project: string, transform: unknown): void {
    parseProject(project);
    if (!transform) throw invalid("message_transform is required.");
    compileTransforms([transform], this, "message_transform")?.dispose();
  }
}

/**
 * Per-message stages: the publish path (after the request's validation, before the log) and the
 * delivery path (per subscription, on a message's first delivery, before its lease) each have a
 * named, ordered list of places. A stage is registered once, with a provider that says whether a
 * resource has it (from its config); a resource with no stage pays one empty-list or null check.
 *
 *   publish:  transforms (the topic's message_transforms) → schema (the topic's schema_settings)
 *   delivery: transforms (the subscription's message_transforms)
 */
import { followsConfig, type Lifecycle } from "../lifecycle.ts";
import type { MessageInput, StoredMessage } from "../message.ts";

/** What goes on along the publish path: messages, their sizes, and the request indexes filtered out. */
export interface PublishBatch {
  readonly messages: readonly MessageInput[];
  readonly sizes: readonly number[];
  /** Indexes into the request, ascending: acknowledged, never stored. */
  readonly filtered: readonly number[];
}

export interface PublishStage {
  readonly name: string;
  /** The batch that goes on; throws (the publish fails) for a message it refuses. */
  apply(batch: PublishBatch, now: number): PublishBatch;
}

/** A delivery stage's answer for one message: the message to deliver, or why it is not delivered. */
export type DeliveryResult = StoredMessage | "filtered" | "failed";

export interface DeliveryStage {
  readonly name: string;
  apply(msg: StoredMessage): DeliveryResult;
  /**
   * Present on a stage that must wait (a model call): the subscription sets the message aside,
   * awaits this instead of apply, and delivers it once it settles (subscription.ts prepare).
   */
  prepare?(msg: StoredMessage): Promise<DeliveryResult>;
  /** With prepare: it runs at publish, and the Publish is answered after it (subscription/early.ts). */
  readonly eager?: boolean;
  /** An eager stage's prepare on a publish's messages at once (one batch); results in order. */
  prepareMany?(msgs: readonly StoredMessage[]): Promise<DeliveryResult[]>;
}

/** A stage's registration: its name (its place in the order) and whether a resource has it. */
export interface StageProvider<R, S> {
  readonly name: string;
  of(r: R): S | null;
}

/** The stages a resource's config asks for, in registration order. */
function gather<R, S>(providers: readonly StageProvider<R, S>[], r: R): S[] {
  const stages: S[] = [];
  for (const p of providers) {
    const s = p.of(r);
    if (s) stages.push(s);
  }
  return stages;
}

/** The feature that sets each topic's publish stages whenever its config is set. */
export function publishStages<T extends { stages: readonly PublishStage[] }>(providers: readonly StageProvider<T, PublishStage>[]): Lifecycle<T, unknown> {
  return followsConfig((t: T) => void (t.stages = gather(providers, t)));
}

/** The feature that sets each subscription's delivery stages, composed into one (null for none). */
export function deliveryStages<S extends { stage: DeliveryStage | null }>(providers: readonly StageProvider<S, DeliveryStage>[]): Lifecycle<S, unknown> {
  return followsConfig((s: S) => {
    const stages = gather(providers, s);
    s.stage = stages.length <= 1 ? (stages[0] ?? null) : inOrder(stages);
  });
}

/**
 * The request indexes filtered out so far, given those a stage dropped (`dropped`: indexes into
 * the batch it was given, whose messages are the request's minus `before`).
 */
export function mergeFiltered(before: readonly number[], dropped: readonly number[]): number[] {
  if (before.length === 0) return dropped as number[];
  const out = before.slice();
  let b = 0;
  let index = 0;
  for (let request = 0, k = 0; k < dropped.length; request++) {
    if (b < before.length && before[b] === request) b++;
    else if (index++ === dropped[k]) {
      out.push(request);
      k++;
    }
  }
  return out.sort((x, y) => x - y);
}

/** Runs a topic's publish stages in order. */
export function runPublishStages(stages: readonly PublishStage[], batch: PublishBatch, now: number): PublishBatch {
  for (const s of stages) batch = s.apply(batch, now);
  return batch;
}

function inOrder(stages: readonly DeliveryStage[]): DeliveryStage {
  const composed: DeliveryStage = {
    name: stages.map((s) => s.name).join("+"),
    apply(msg) {
      let m: StoredMessage = msg;
      for (const s of stages) {
        const r = s.apply(m);
        if (typeof r === "string") return r;
        m = r;
      }
      return m;
    },
  };
  const prepare = async (msg: StoredMessage): Promise<DeliveryResult> => {
    let m: StoredMessage = msg;
    for (const s of stages) {
      const r = s.prepare ? await s.prepare(m) : s.apply(m);
      if (typeof r === "string") return r;
      m = r;
    }
    return m;
  };
  // Asked on each use: a stage becomes asynchronous when its engine loads.
  Object.defineProperty(composed, "eager", { get: () => stages.some((s) => s.prepare) && stages.every((s) => !s.prepare || s.eager) });
  return Object.defineProperty(composed, "prepare", { get: () => (stages.some((s) => s.prepare) ? prepare : undefined) });
}

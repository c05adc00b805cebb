/**
 * Per-message stages: the publish path (after the request's validation, before the log) and the
 * delivery path (per subscription, on a message's first delivery, before its lease) each have a
 * named, ordered list of places. A stage is registered once, with a provider that says whether a
 * resource has it (from its config); a resource with no stage pays one empty-list or null check.
 *
 *   publish:  transforms (the topic's message_transforms) → schema (the topic's schema_settings)
 *   delivery: transforms (the subscription's message_transforms)
 */
import type { Lifecycle } from "./lifecycle.ts";
import type { MessageInput, StoredMessage } from "./message.ts";

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
}

/** A stage's registration: its name (its place in the order) and whether a resource has it. */
export interface StageProvider<R, S> {
  readonly name: string;
  of(r: R): S | null;
}

/** The publish stages of each topic, rebuilt in order whenever its config is set. */
export class PublishStages<T extends { config: unknown; stages: readonly PublishStage[] }> implements Lifecycle<T, unknown> {
  constructor(private providers: readonly StageProvider<T, PublishStage>[]) {}

  created(t: T): void {
    this.refresh(t);
  }

  restored(t: T): void {
    this.refresh(t);
  }

  updated(t: T): void {
    this.refresh(t);
  }

  refresh(t: T): void {
    const stages: PublishStage[] = [];
    for (const p of this.providers) {
      const s = p.of(t);
      if (s) stages.push(s);
    }
    t.stages = stages;
  }
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

/** The delivery stages of each subscription, composed in order into one (null for none). */
export class DeliveryStages<S extends { stage: DeliveryStage | null }> implements Lifecycle<S, unknown> {
  constructor(private providers: readonly StageProvider<S, DeliveryStage>[]) {}

  created(s: S): void {
    this.refresh(s);
  }

  restored(s: S): void {
    this.refresh(s);
  }

  updated(s: S): void {
    this.refresh(s);
  }

  refresh(s: S): void {
    const stages: DeliveryStage[] = [];
    for (const p of this.providers) {
      const st = p.of(s);
      if (st) stages.push(st);
    }
    s.stage = stages.length <= 1 ? (stages[0] ?? null) : inOrder(stages);
  }
}

function inOrder(stages: readonly DeliveryStage[]): DeliveryStage {
  return {
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
}

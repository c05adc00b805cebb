/**
 * Single Message Transforms: the message_transforms contract (validation as the real service
 * applies it) and a TransformChain, the enabled transforms of one topic or subscription compiled
 * by the TransformEngine and applied in order to one message.
 */
import { mergeFiltered, type DeliveryResult, type DeliveryStage, type PublishStage } from "./stages.ts";
import { echo } from "../bounded.ts";
import { PubSubError, invalid } from "../errors.ts";
import { checkMessage } from "../rules/limits.ts";
import type { MessageInput, StoredMessage } from "../message.ts";
import type { AiInferenceCaller, CompiledUdf, PooledChain, PoolOutcome, PoolStep, TransformEngine, UdfMessage, UdfMetadata, UdfOutcome, CompressionCodec } from "./transform-engine.ts";
import { checkCompression, compressionStep, type CompressionProto } from "./compression.ts";

export const TRANSFORM_LIMITS = {
  maxEnabled: 5,
  /** Ours (the real service documents none we could find): bytes of one UDF's code. */
  codeBytes: 64 * 1024,
  functionNameChars: 128,
} as const;

interface TransformProto {
  javascriptUdf?: { functionName?: string; code?: string } | null;
  aiInference?: { endpoint?: string; unstructuredInference?: { parameters?: unknown } | null } | null;
  compression?: CompressionProto | null;
  enabled?: boolean;
  disabled?: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await arguments eval undefined").split(" "),
);

/** What compiles a chain: the UDF engine, the compression codec and the model caller, each null until the server gives it. */
export interface TransformRuntime {
  readonly engine: TransformEngine | null;
  readonly compression: CompressionCodec | null;
  readonly inference: AiInferenceCaller | null;
}

/**
 * One step: a compiled UDF, a compression, or an ai_inference transform (`later`: a model call,
 * only on the asynchronous path, applyAsync). A step whose runtime is missing (udf and later
 * null) passes the message on.
 */
export interface TransformStep {
  readonly name: string;
  readonly kind: "javascript_udf" | "ai_inference" | "compression";
  readonly udf: CompiledUdf | null;
  readonly later?: ((message: UdfMessage) => Promise<UdfOutcome>) | null;
  failures: number;
}

export type ChainResult =
  | { kind: "message"; data: Uint8Array; attributes: Readonly<Record<string, string>> }
  | { kind: "filtered" }
  | { kind: "failed"; step: string; error: string };

const encoder = new TextEncoder();
const NO_DATA = new Uint8Array(0);
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

export class TransformChain {
  transformed = 0;
  filtered = 0;
  failed = 0;
  /** Whether it runs on the asynchronous path (applyAsync): a step calls a model, or the chain runs in the worker pool. */
  readonly async: boolean;

  /**
   * `pooled`: the same steps in the engine's worker pool, which the asynchronous path uses (the
   * steps' own UDFs still serve the synchronous callers and TestMessageTransforms).
   */
  constructor(
    readonly steps: readonly TransformStep[],
    readonly pooled: PooledChain | null = null,
  ) {
    this.async = pooled !== null || steps.some((s) => !!s.later);
  }

  /** A pooled message's outcome as the chain's result, counted as apply counts it. */
  record(out: PoolOutcome | undefined): ChainResult {
    if (!out) return { kind: "failed", step: "", error: "not run" };
    if (out.kind === "message") {
      this.transformed++;
      return out;
    }
    if (out.kind === "filtered") {
      this.filtered++;
      return out;
    }
    const step = this.steps[out.step];
    step.failures++;
    this.failed++;
    return { kind: "failed", step: step.name, error: out.error };
  }

  /** Runs the enabled synchronous steps in order (a model call passes the message on); a filter or a failure stops the chain. */
  apply(data: Uint8Array | undefined, attributes: Readonly<Record<string, string>> | undefined, meta: UdfMetadata): ChainResult {
    let message: UdfMessage = { data: data ?? NO_DATA, attributes: attributes ?? NO_ATTRIBUTES };
    for (const step of this.steps) {
      if (!step.udf) continue;
      const out = step.udf.run(message, meta);
      if (!out.ok || out.message === null) return this.stopped(step, out);
      message = out.message;
    }
    this.transformed++;
    return { kind: "message", data: message.data, attributes: message.attributes };
  }

  /** apply with the model calls, each awaited at its place in the order. */
  async applyAsync(data: Uint8Array | undefined, attributes: Readonly<Record<string, string>> | undefined, meta: UdfMetadata): Promise<ChainResult> {
    if (this.pooled) {
      const [out] = await this.pooled.run([{ data: data ?? NO_DATA, attributes: attributes ?? NO_ATTRIBUTES, meta }], false);
      return this.record(out);
    }
    let message: UdfMessage = { data: data ?? NO_DATA, attributes: attributes ?? NO_ATTRIBUTES };
    for (const step of this.steps) {
      const out = step.udf ? step.udf.run(message, meta) : step.later ? await step.later(message) : null;
      if (!out) continue;
      if (!out.ok || out.message === null) return this.stopped(step, out);
      message = out.message;
    }
    this.transformed++;
    return { kind: "message", data: message.data, attributes: message.attributes };
  }

  /** A step that failed or filtered: counted, and the chain's result. */
  private stopped(step: TransformStep, out: UdfOutcome): ChainResult {
    if (!out.ok) {
      step.failures++;
      this.failed++;
      return { kind: "failed", step: step.name, error: out.error };
    }
    this.filtered++;
    return { kind: "filtered" };
  }

  /**
   * One result per enabled step, as TestMessageTransforms answers: the message after each step,
   * stopping after a filter or a failure. Counts nothing (a test is not traffic). A promise when
   * a model call is reached (the steps before it ran at once).
   */
  trace(data: Uint8Array | undefined, attributes: Readonly<Record<string, string>> | undefined, meta: UdfMetadata): ChainResult[] | Promise<ChainResult[]> {
    let message: UdfMessage = { data: data ?? NO_DATA, attributes: attributes ?? NO_ATTRIBUTES };
    const out: ChainResult[] = [];
    const record = (step: TransformStep, r: UdfOutcome): boolean => {
      if (!r.ok) out.push({ kind: "failed", step: step.name, error: r.error });
      else if (r.message === null) out.push({ kind: "filtered" });
      else {
        message = r.message;
        out.push({ kind: "message", data: message.data, attributes: message.attributes });
        return true;
      }
      return false;
    };
    const from = (first: number): ChainResult[] | Promise<ChainResult[]> => {
      for (let i = first; i < this.steps.length; i++) {
        const step = this.steps[i];
        if (!step.udf && step.later) return step.later(message).then((r) => (record(step, r) ? from(i + 1) : out));
        if (!record(step, step.udf ? step.udf.run(message, meta) : { ok: true, message })) break;
      }
      return out;
    };
    return from(0);
  }

  /** Frees the compiled UDFs (the engine's heap is bounded): called when the chain is replaced or its resource goes. */
  dispose(): void {
    for (const s of this.steps) s.udf?.dispose();
    this.pooled?.dispose();
  }

  /** What the operator surface shows: each enabled step with its failures, and the chain's counts. */
  summary() {
    return {
      steps: this.steps.map((s) => ({ functionName: s.name, kind: s.kind, failures: s.failures })),
      transformed: this.transformed,
      filtered: this.filtered,
      failed: this.failed,
    };
  }
}

/** Whether a message_transforms list has a JavaScript UDF (only those need the engine loaded). */
export const hasJavaScriptUdf = (list: unknown): boolean =>
  Array.isArray(list) && list.some((t) => !!(t as TransformProto | null)?.javascriptUdf);

/**
 * Validates a resource's message_transforms and, with an engine, compiles the enabled ones
 * (null when none is enabled, so a resource without transforms costs one null check).
 */
export function compileTransforms(list: readonly unknown[] | undefined, runtime: TransformRuntime, field = "message_transforms"): TransformChain | null {
  const { engine, compression, inference } = runtime;
  if (!list || list.length === 0) return null;
  const names = new Set<string>();
  const steps: TransformStep[] = [];
  /** The enabled steps as the pool runs them; null once one cannot run there (a model call). */
  let poolSteps: PoolStep[] | null = engine?.pool ? [] : null;
  let enabled = 0;
  try {
    list.forEach((raw, i) => check(raw, i));
  } catch (e) {
    for (const s of steps) s.udf?.dispose();
    throw e;
  }
  function check(raw: unknown, i: number): void {
    const t = (raw ?? {}) as TransformProto;
    const at = field.endsWith("s") ? `${field}[${i}]` : field;
    const udf = t.javascriptUdf;
    const set = [udf, t.aiInference, t.compression].filter((x) => !!x).length;
    if (set > 1) throw invalid(`${at}: only one of javascript_udf, ai_inference and compression may be set.`);
    if (set === 0) throw invalid(`${at}: a message transform must set javascript_udf, ai_inference or compression.`);
    const on = !t.disabled;
    if (on) enabled++;
    if (t.compression) {
      const c = checkCompression(t.compression, at);
      if (on) steps.push({ name: `compression[${i}]`, kind: "compression", udf: compression ? compressionStep(compression, c) : null, failures: 0 });
      if (on && compression) poolSteps?.push({ kind: "compression", ...c });
      else if (on) poolSteps = null;
      return;
    }
    if (!udf) {
      const ai = t.aiInference!;
      const endpoint = ai.endpoint ?? "";
      if (endpoint === "") throw invalid(`${at}.ai_inference.endpoint is required.`);
      const spec = { endpoint, parameters: ai.unstructuredInference?.parameters ?? null };
      const later = inference ? (m: UdfMessage) => inference.infer(spec, m) : null;
      if (on) steps.push({ name: `ai_inference[${i}]`, kind: "ai_inference", udf: null, later, failures: 0 });
      if (on) poolSteps = null;
      return;
    }
    const name = udf.functionName ?? "";
    const code = udf.code ?? "";
    if (name === "") throw invalid(`${at}.javascript_udf.function_name is required.`);
    if (name.length > TRANSFORM_LIMITS.functionNameChars || !IDENTIFIER.test(name) || RESERVED.has(name)) {
      throw invalid(`${at}.javascript_udf.function_name "${echo(name)}" is not a valid JavaScript function name.`);
    }
    if (names.has(name)) {
      throw invalid(`${at}.javascript_udf.function_name "${name}" is used by another transform; each JavaScript UDF on a resource must have a unique function_name.`);
    }
    names.add(name);
    if (code.trim() === "") throw invalid(`${at}.javascript_udf.code is required.`);
    const bytes = encoder.encode(code).length;
    if (bytes > TRANSFORM_LIMITS.codeBytes) {
      throw invalid(`${at}.javascript_udf.code is ${bytes} bytes, but the maximum allowed is ${TRANSFORM_LIMITS.codeBytes}.`);
    }
    if (!engine) {
      if (on) steps.push({ name, kind: "javascript_udf", udf: null, failures: 0 });
      return;
    }
    const compiled = engine.compile(name, code);
    if (typeof compiled === "string") throw invalid(`${at}.javascript_udf "${name}" is not valid: ${compiled}`);
    if (on) steps.push({ name, kind: "javascript_udf", udf: compiled, failures: 0 });
    else compiled.dispose();
    if (on) poolSteps?.push({ kind: "javascript_udf", name, code });
  }
  if (enabled > TRANSFORM_LIMITS.maxEnabled) {
    for (const s of steps) s.udf?.dispose();
    throw invalid(
      `The request exceeds the maximum number of enabled message transforms. Maximum enabled transforms: ${TRANSFORM_LIMITS.maxEnabled}. Enabled transforms: ${enabled}`,
    );
  }
  if (!steps.length) return null;
  // A chain of compressions alone stays in the caller's turn (native code, no user code to wait for).
  const pooled = poolSteps?.some((p) => p.kind === "javascript_udf") ? engine!.pool!.chain(poolSteps) : null;
  return new TransformChain(steps, pooled);
}

let lastSecond = NaN;
let lastTime = "";

/** publish_time as the real service formats it, to the second in UTC (the last one is kept: a burst shares it). */
function secondsTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastTime = new Date(second * 1000).toISOString().slice(0, 19) + "Z";
  }
  return lastTime;
}

/** The metadata a UDF gets; each key only when known. */
export function udfMetadata(messageId: string | undefined, publishTime: number, orderingKey: string | undefined): UdfMetadata {
  const meta: UdfMetadata = { publish_time: secondsTime(publishTime) };
  if (messageId !== undefined) meta.message_id = messageId;
  if (orderingKey) meta.ordering_key = orderingKey;
  return meta;
}

/**
 * A publish's messages after the topic's chain: those to store with their sizes (each result
 * checked against the message limits, named by its index in the request), and the indexes
 * filtered out.
 */
export function transformAtPublish(chain: TransformChain, messages: readonly MessageInput[], now: number): TransformedBatch {
  return collect(messages, (m) => chain.apply(m.data, m.attributes, udfMetadata(undefined, now, m.orderingKey)));
}

/**
 * transformAtPublish on the asynchronous path: in the worker pool the request's messages cross
 * together (stopping at the first failure, where the Publish fails); with model calls the
 * messages' chains run concurrently. The results keep the request's order.
 */
export async function transformAtPublishAsync(chain: TransformChain, messages: readonly MessageInput[], now: number): Promise<TransformedBatch> {
  if (chain.pooled) {
    const inputs = messages.map((m) => ({ data: m.data ?? NO_DATA, attributes: m.attributes ?? NO_ATTRIBUTES, meta: udfMetadata(undefined, now, m.orderingKey) }));
    const outs = await chain.pooled.run(inputs, true);
    return collect(messages, (_, i) => chain.record(outs[i]));
  }
  const results = await Promise.all(messages.map((m) => chain.applyAsync(m.data, m.attributes, udfMetadata(undefined, now, m.orderingKey))));
  return collect(messages, (_, i) => results[i]);
}

export interface TransformedBatch {
  kept: MessageInput[];
  sizes: number[];
  filtered: number[];
}

function collect(messages: readonly MessageInput[], result: (m: MessageInput, i: number) => ChainResult): TransformedBatch {
  const kept: MessageInput[] = [];
  const sizes: number[] = [];
  const filtered: number[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const r = result(m, i);
    if (r.kind === "failed") {
      throw invalid(`Message transform "${r.step}" failed on messages[${i}]: ${r.error}`);
    }
    if (r.kind === "filtered") {
      filtered.push(i);
      continue;
    }
    const out: MessageInput = { data: r.data, attributes: r.attributes as Record<string, string>, orderingKey: m.orderingKey };
    try {
      sizes.push(checkMessage(out, i));
    } catch (e) {
      if (e instanceof PubSubError) throw new PubSubError(e.code, `After the topic's message transforms: ${e.message}`, e.details);
      throw e;
    }
    kept.push(out);
  }
  return { kept, sizes, filtered };
}

/** A stored message as one subscription's transforms made it: same id, publish time and key. */
export function shownMessage(m: StoredMessage, data: Uint8Array, attributes: Readonly<Record<string, string>>): StoredMessage {
  return { id: m.id, seq: m.seq, data, attributes, orderingKey: m.orderingKey, publishTime: m.publishTime, size: m.size };
}

/** The "transforms" publish stage: the topic's chain (looked up per publish: the engine may load later). */
export function transformPublishStage(chain: () => TransformChain | undefined | null): PublishStage {
  return {
    name: "transforms",
    apply(batch, now) {
      const c = chain();
      if (!c) return batch;
      const { kept, sizes, filtered } = transformAtPublish(c, batch.messages, now);
      return { messages: kept, sizes, filtered: mergeFiltered(batch.filtered, filtered) };
    },
  };
}

/**
 * The "transforms" delivery stage: the subscription's chain, run on a message's first delivery.
 * While the chain is asynchronous (model calls, or the worker pool: the engine may load after the
 * stage is made) it also has `prepare`, which the subscription awaits before the message may be
 * leased.
 */
export function transformDeliveryStage(chain: () => TransformChain | null): DeliveryStage {
  const prepare = async (m: StoredMessage): Promise<DeliveryResult> => {
    const c = chain();
    if (!c) return m;
    const r = await c.applyAsync(m.data, m.attributes, udfMetadata(m.id, m.publishTime, m.orderingKey));
    return r.kind === "message" ? shownMessage(m, r.data, r.attributes) : r.kind;
  };
  return {
    name: "transforms",
    apply(m) {
      const c = chain();
      if (!c) return m;
      const r = c.apply(m.data, m.attributes, udfMetadata(m.id, m.publishTime, m.orderingKey));
      return r.kind === "message" ? shownMessage(m, r.data, r.attributes) : r.kind;
    },
    get prepare() {
      return chain()?.async ? prepare : undefined;
    },
    get eager() {
      return !!chain()?.pooled;
    },
    async prepareMany(msgs) {
      const c = chain();
      if (!c?.pooled) return Promise.all(msgs.map(prepare));
      const outs = await c.pooled.run(
        msgs.map((m) => ({ data: m.data ?? NO_DATA, attributes: m.attributes ?? NO_ATTRIBUTES, meta: udfMetadata(m.id, m.publishTime, m.orderingKey) })),
        false,
      );
      return msgs.map((m, i) => {
        const r = c.record(outs[i]);
        return r.kind === "message" ? shownMessage(m, r.data, r.attributes) : r.kind;
      });
    },
  };
}

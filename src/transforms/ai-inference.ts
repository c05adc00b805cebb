/**
 * The ai_inference transform's model calls, to a Vertex-AI-shaped endpoint the user runs
 * (--ai-inference-endpoint). The request is the message data (a JSON object) with the
 * transform's unstructured_inference.parameters combined into it (their fields added at the top
 * level; the message's own fields win); the message handed on carries, as JSON, the original
 * data and the model's answer: {"data": <original>, "inference": <answer>}; attributes unchanged.
 * Every failure (no route, not JSON, connection refused, non-2xx, an answer that is not JSON,
 * too large, too slow, too many waiting) is an outcome naming why, never a rejection.
 */
import { LIMITS } from "../core/rules/limits.ts";
import type { AiInferenceCaller, AiInferenceSpec, UdfMessage, UdfOutcome } from "../core/stages/transform-engine.ts";
import { wellKnownToJson } from "../proto/well-known.ts";
import { isInferenceEndpointName, type InferenceRoute } from "../runtime/config.ts";

export const INFERENCE_LIMITS = {
  /** Requests in flight to one URL; more wait their turn. */
  concurrency: 8,
  /** Requests waiting for one URL; past it a message fails at once. */
  queued: 10_000,
  /** The largest answer read (the message it goes into cannot be larger). */
  responseBytes: LIMITS.messageDataBytes,
} as const;

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/** The request in flight to one URL and those waiting: FIFO, bounded. */
class Gate {
  private active = 0;
  private waiting: (() => void)[] = [];

  async run<T>(fn: () => Promise<T>): Promise<T | "full"> {
    if (this.active >= INFERENCE_LIMITS.concurrency) {
      if (this.waiting.length >= INFERENCE_LIMITS.queued) return "full";
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

const failed = (error: string): UdfOutcome => ({ ok: false, error });

export class HttpInferenceCaller implements AiInferenceCaller {
  private fallback: URL | null = null;
  private named = new Map<string, URL>();
  private gates = new Map<string, Gate>();

  constructor(
    routes: readonly InferenceRoute[],
    private timeoutMs: number,
  ) {
    for (const r of routes) {
      if (r.name === null) this.fallback = r.url;
      else this.named.set(r.name, r.url);
    }
  }

  /** Where a request for `endpoint` goes: its own URL; else the default one as given, or, when that has no path, Vertex AI's own `/v1/{endpoint}:rawPredict` on it. */
  urlOf(endpoint: string): string | null {
    const own = this.named.get(endpoint);
    if (own) return own.href;
    const base = this.fallback;
    if (!base) return null;
    if (base.pathname !== "/" || base.search) return base.href;
    // The name becomes part of the path: only a well-formed one (no "..", "?", "#", "%").
    return isInferenceEndpointName(endpoint) ? `${base.origin}/v1/${endpoint}:rawPredict` : null;
  }

  async infer(spec: AiInferenceSpec, message: UdfMessage): Promise<UdfOutcome> {
    const url = this.urlOf(spec.endpoint);
    if (!url) return failed(`no --ai-inference-endpoint serves "${spec.endpoint.slice(0, 300)}" (a name in Vertex AI's form reaches the plain URL's rawPredict path)`);
    let original: unknown;
    try {
      original = JSON.parse(decoder.decode(message.data));
    } catch {
      return failed("the message data is not JSON; the AI inference transform sends it to the model as a JSON request");
    }
    if (typeof original !== "object" || original === null || Array.isArray(original)) {
      return failed("the message data must be a JSON object: the request to the model");
    }
    let body: string;
    try {
      body = JSON.stringify(Object.assign(Object.create(null), parametersOf(spec.parameters), original));
    } catch (e) {
      return failed(`the request could not be built: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
    }
    let gate = this.gates.get(url);
    if (!gate) this.gates.set(url, (gate = new Gate()));
    const answer = await gate.run(() => this.post(url, body));
    if (answer === "full") return failed(`more than ${INFERENCE_LIMITS.queued} requests wait for ${url}`);
    if (typeof answer === "string") return failed(answer);
    try {
      const data = encoder.encode(JSON.stringify({ data: original, inference: answer.json }));
      return { ok: true, message: { data, attributes: message.attributes } };
    } catch (e) {
      // JSON nested deeper than the stack (RangeError): the answer cannot be carried.
      return failed(`the model's answer could not be added to the message: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
    }
  }

  /** One POST: the answer's JSON, or why there is none. */
  private async post(url: string, body: string): Promise<{ json: unknown } | string> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body, redirect: "manual", signal });
      const text = await readBounded(res);
      if (text === null) return `the model's answer from ${url} exceeds ${INFERENCE_LIMITS.responseBytes} bytes`;
      if (res.status < 200 || res.status > 299) return `the model at ${url} answered HTTP ${res.status}: ${text.slice(0, 200)}`;
      try {
        return { json: JSON.parse(text) };
      } catch {
        return `the model at ${url} answered something that is not JSON: ${text.slice(0, 100)}`;
      }
    } catch (e) {
      if (signal.aborted) return `the model at ${url} did not answer within ${this.timeoutMs} ms`;
      return `the model at ${url} could not be reached: ${String((e as Error)?.message ?? e).slice(0, 200)}`;
    }
  }
}

/** unstructured_inference.parameters (a Struct as proto-loader shapes it) as plain JSON fields. */
function parametersOf(parameters: unknown): object | null {
  if (!parameters || typeof parameters !== "object") return null;
  return wellKnownToJson("google.protobuf.Struct", parameters as Record<string, unknown>) as object;
}

/** The body as text, or null once it passes the limit (read no further). */
async function readBounded(res: Response): Promise<string | null> {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > INFERENCE_LIMITS.responseBytes || !res.body) {
    await res.body?.cancel().catch(() => {});
    return declared > INFERENCE_LIMITS.responseBytes ? null : "";
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > INFERENCE_LIMITS.responseBytes) {
      await res.body.cancel().catch(() => {});
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

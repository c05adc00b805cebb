/**
 * The TransformEngine on QuickJS compiled to WebAssembly (quickjs-emscripten): user code runs in
 * an interpreter inside a wasm instance, so it can reach nothing of this process (no process, fs,
 * network, timers, Bun or emulator globals exist there), a runtime-wide memory limit and a stack
 * limit are enforced by the interpreter's allocator, and an interrupt handler stops a call at its
 * deadline. One runtime and one context serve every transform: the driver freezes the realm, and
 * each call builds the user's closures afresh, so nothing passes between calls or transforms.
 */
import { isUtf8 } from "node:buffer";
import variant from "@jitl/quickjs-wasmfile-release-sync";
// Imported as a file so `bun build --compile` embeds it: the variant alone looks for the .wasm
// beside its own script, which a single-file binary does not have.
import wasmPath from "@jitl/quickjs-wasmfile-release-sync/wasm" with { type: "file" };
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from "quickjs-emscripten-core";
import type { CompiledUdf, TransformEngine, UdfMessage, UdfMetadata, UdfOutcome } from "../core/stages/transform-engine.ts";
import { DRIVER } from "./driver.ts";

export const SANDBOX_LIMITS = {
  /** One call (or one compile) stops after this long. */
  callMillis: 100,
  /**
   * The interpreter's whole heap, every compiled UDF and one call's allocations together: the
   * maximum of the wasm memory itself. (QuickJS's own malloc limit does not hold in this build,
   * which cannot measure its blocks; a wasm memory cannot grow past its maximum.)
   */
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
} as const;

const MAX_ERROR = 500;
const MEMORY_LIMIT = `The function exceeded the memory limit of ${SANDBOX_LIMITS.memoryBytes / 1048576} MiB`;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const EMPTY = new Uint8Array(0);
const [N, M, J, K] = [78, 77, 74, 75]; // "N", "M", "J", "K"
const NEWLINE = 10;

/**
 * Strings into the interpreter as UTF-8 bytes, straight through the wasm heap (and the answers
 * read out of it, below): the library's newString/getString go through JavaScript strings (a
 * decode and an encode per message, and Emscripten's per-character copy), which cost more than
 * the UDF itself. This uses the library's internals (context.memory, context.ffi), pinned with
 * its exact version.
 */
class HeapFull extends Error {}
const HEAP_FULL = Symbol("heap full");

class Heap {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly c: any;

  constructor(context: QuickJSContext) {
    this.c = context;
  }

  /** A QuickJS string from a host string without NULs (JSON text): encoded straight into the heap. */
  newText(text: string): QuickJSHandle {
    const { module } = this.c.memory;
    const max = text.length * 3 + 1;
    const ptr = module._malloc(max);
    if (!ptr) throw new HeapFull();
    const { written } = encoder.encodeInto(text, (module.HEAPU8 as Uint8Array).subarray(ptr, ptr + max - 1));
    module.HEAPU8[ptr + written] = 0;
    try {
      return this.c.memory.heapValueHandle(this.c.ffi.QTS_NewString(this.c.ctx.value, ptr));
    } finally {
      module._free(ptr);
    }
  }
}

/** A parsed attribute map as a null-prototype object: every key, `__proto__` too, stays data. */
export function copyAttributes(parsed: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const k of Object.keys(parsed)) out[k] = parsed[k];
  return out;
}

function bounded(text: string): string {
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR)}…` : text;
}

/**
 * QuickJS's Function constructor pastes the body into a source text, so a body such as
 * `}); let kept = []; (function(){` would escape to the global scope and keep state between calls.
 * The host's parser (which checks a body on its own, and never runs it) refuses such code first.
 */
function notAFunctionBody(code: string): string | null {
  try {
    new Function(code);
    return null;
  } catch (e) {
    return `SyntaxError: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** One message of a batch: its data, and its input to the driver (driver.ts) as JSON. */
export interface BatchItem {
  data: Uint8Array;
  input: string;
}

/** A batch's outcome for one message: filtered, failed, or the new attributes (as JSON) and data. */
export type BatchOutcome = { tag: "N" } | { tag: "E"; error: string } | { tag: "M"; attributes: string; data: Uint8Array };

/** A compiled UDF that also runs batches: the worker pool's (one crossing into the interpreter for many messages). */
export interface BatchUdf extends CompiledUdf {
  runBatch(items: readonly BatchItem[], stop: boolean): BatchOutcome[];
}

/** Data and messages one entry into the interpreter takes at most: its heap holds their inputs and outputs at once. */
const BATCH_BYTES = 1 << 20;
const BATCH_MESSAGES = 1000;

/**
 * A message as a batch item: `[attributes, metadata, keep]`, keep 1 when a result with the same
 * data may hand back these very bytes (valid UTF-8 without NUL: the interpreter's string of them
 * encodes back to them; other bytes come back as the interpreter encodes its string, U+FFFD for
 * what was invalid); data holding a NUL goes fourth (the engine's C strings would cut it).
 * `keepable` false never keeps (the outcome as before keep existed).
 */
export function batchItem(data: Uint8Array, attributes: string, meta: string, keepable = true): BatchItem {
  if (!data.includes(0)) return { data, input: `[${attributes},${meta},${keepable && isUtf8(data) ? 1 : 0}]` };
  return { data: EMPTY, input: `[${attributes},${meta},0,${JSON.stringify(decoder.decode(data))}]` };
}

export class QuickJsEngine implements TransformEngine {
  private deadline = Infinity;

  private readonly heap: Heap;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
    private readonly compileFn: QuickJSHandle,
    private readonly batchFn: QuickJSHandle,
    private readonly partialFn: QuickJSHandle,
  ) {
    this.heap = new Heap(context);
    runtime.setInterruptHandler(() => performance.now() > this.deadline);
  }

  compile(functionName: string, code: string): BatchUdf | string {
    if (!/^[A-Za-z_$][\w$]*$/.test(functionName)) return `"${functionName.slice(0, 64)}" is not a JavaScript identifier`;
    const refused = notAFunctionBody(code);
    if (refused) return refused;
    const ctx = this.context;
    const name = ctx.newString(functionName);
    const src = ctx.newString(code);
    try {
      const result = this.guarded(() => ctx.callFunction(this.compileFn, ctx.undefined, name, src));
      if (typeof result === "string") return result;
      const run = result;
      return {
        run: (message, metadata) => this.call(run, message, metadata),
        runBatch: (items, stop) => this.batch(run, items, stop),
        dispose: () => run.alive && run.dispose(),
      };
    } finally {
      name.dispose();
      src.dispose();
    }
  }

  /** One message: a batch of one (the same outcomes, error texts whole). */
  private call(run: QuickJSHandle, message: UdfMessage, metadata: UdfMetadata): UdfOutcome {
    const [o] = this.batch(run, [batchItem(message.data, JSON.stringify(message.attributes), JSON.stringify(metadata))], true);
    if (o.tag === "N") return { ok: true, message: null };
    if (o.tag === "E") return { ok: false, error: o.error };
    return { ok: true, message: { data: o.data, attributes: copyAttributes(JSON.parse(o.attributes)) } };
  }

  /**
   * Many messages through one UDF, a chunk per entry into the interpreter. Each message keeps its
   * own time limit: a chunk's deadline is its first message's, and when a later one is interrupted
   * the outputs before it are kept and it runs again first in the next chunk, with a deadline of
   * its own (a UDF keeps no state between messages, so running one again changes nothing). With
   * `stop`, the batch ends at the first error (a Publish fails on its first failing message).
   */
  private batch(run: QuickJSHandle, items: readonly BatchItem[], stop: boolean): BatchOutcome[] {
    const out: BatchOutcome[] = [];
    let i = 0;
    let single = false;
    while (i < items.length) {
      let end = i + 1;
      for (let bytes = items[i].data.length + items[i].input.length; !single && end < items.length && end - i < BATCH_MESSAGES; end++) {
        bytes += items[end].data.length + items[end].input.length;
        if (bytes > BATCH_BYTES) break;
      }
      const r = this.chunk(run, items, i, end, stop);
      if (r === HEAP_FULL) {
        // Too much for the heap at once: one at a time, as a lone call would be judged.
        if (!single && end - i > 1) single = true;
        else {
          out.push({ tag: "E", error: MEMORY_LIMIT });
          i++;
          if (stop) break;
        }
        continue;
      }
      single = false;
      for (const o of r.outcomes) out.push(o);
      i += r.outcomes.length;
      if (stop && r.outcomes.length && r.outcomes[r.outcomes.length - 1].tag === "E") break;
      if (r.escaped === undefined) continue;
      if (r.outcomes.length > 0) continue; // the interrupted message runs again, first
      out.push({ tag: "E", error: r.escaped });
      i++;
      if (stop) break;
    }
    return out;
  }

  private chunk(run: QuickJSHandle, items: readonly BatchItem[], from: number, to: number, stop: boolean): typeof HEAP_FULL | { outcomes: BatchOutcome[]; escaped?: string } {
    const ctx = this.context;
    const c = ctx as unknown as { ctx: { value: number }; ffi: Record<string, (...a: number[]) => number>; memory: { module: { _malloc(n: number): number; _free(p: number): void; HEAPU8: Uint8Array } } };
    const { module } = c.memory;
    let size = 0;
    for (let k = from; k < to; k++) size += items[k].data.length + 1;
    const buf = module._malloc(size);
    if (!buf) return HEAP_FULL;
    const datas: { value: number }[] = [];
    let input: QuickJSHandle | undefined;
    let result: QuickJSHandle | string;
    try {
      let at = buf;
      for (let k = from; k < to; k++) {
        const d = items[k].data;
        module.HEAPU8.set(d, at);
        module.HEAPU8[at + d.length] = 0;
        datas.push({ value: c.ffi.QTS_NewString(c.ctx.value, at) });
        at += d.length + 1;
      }
      let json = "[";
      for (let k = from; k < to; k++) json += (k === from ? "" : ",") + items[k].input;
      input = this.heap.newText(json + "]");
      const args = [run, stop ? ctx.true : ctx.false, input, ...datas] as QuickJSHandle[];
      result = this.guarded(() => ctx.callFunction(this.batchFn, ctx.undefined, args));
    } catch (e) {
      if (e instanceof HeapFull) return HEAP_FULL;
      throw e;
    } finally {
      for (const d of datas) c.ffi.QTS_FreeValuePointer(c.ctx.value, d.value);
      module._free(buf);
      input?.dispose();
    }
    if (typeof result !== "string") return { outcomes: this.outcomes(result, items, from) };
    const made = ctx.callFunction(this.partialFn, ctx.undefined);
    const outcomes = made.error ? (made.error.dispose(), []) : this.outcomes(made.value, items, from);
    return { outcomes, escaped: result };
  }

  /** A batch's answer (outputs each ending in a NUL, the first items[from]'s) as outcomes; the handle is disposed. */
  private outcomes(handle: QuickJSHandle, items: readonly BatchItem[], from: number): BatchOutcome[] {
    const c = this.context as unknown as { ctx: { value: number }; ffi: Record<string, (...a: number[]) => number>; memory: { module: { HEAPU8: Uint8Array } } };
    const ptr = c.ffi.QTS_GetString(c.ctx.value, handle.value);
    handle.dispose();
    const heap = c.memory.module.HEAPU8;
    const out: BatchOutcome[] = [];
    let at = ptr;
    // The C string's own end: a NUL right after the last output's NUL.
    for (;;) {
      const end = heap.indexOf(0, at);
      if (end === at) break;
      out.push(this.outcome(heap.subarray(at, end), items[from + out.length]));
      at = end + 1;
    }
    c.ffi.QTS_FreeCString(c.ctx.value, ptr);
    return out;
  }

  private outcome(bytes: Uint8Array, item: BatchItem): BatchOutcome {
    const tag = bytes[0];
    if (tag === N) return { tag: "N" };
    if (tag === K) return { tag: "M", attributes: decoder.decode(bytes.subarray(1)), data: item.data };
    if (tag === M) {
      const nl = bytes.indexOf(NEWLINE);
      return { tag: "M", attributes: decoder.decode(bytes.subarray(1, nl)), data: bytes.slice(nl + 1) };
    }
    const text = decoder.decode(bytes.subarray(1));
    if (tag === J) {
      const [attrs, data] = JSON.parse(text) as [Record<string, string>, string];
      return { tag: "M", attributes: JSON.stringify(attrs), data: encoder.encode(data) };
    }
    const error = JSON.parse(text) as string;
    return { tag: "E", error: error === "InternalError: out of memory" ? MEMORY_LIMIT : bounded(error) };
  }

  /** Runs one sandbox entry under the deadline; an escaped error (limit, syntax) becomes its text. */
  private guarded(fn: () => ReturnType<QuickJSContext["callFunction"]>): QuickJSHandle | string {
    this.deadline = performance.now() + SANDBOX_LIMITS.callMillis;
    try {
      const result = fn();
      if (!result.error) return result.value;
      const timedOut = performance.now() > this.deadline;
      const text = this.errorText(result.error);
      result.error.dispose();
      if (timedOut) return `The function exceeded the time limit of ${SANDBOX_LIMITS.callMillis} ms`;
      if (/out of memory/i.test(text)) return MEMORY_LIMIT;
      return bounded(text);
    } catch (err) {
      return bounded(`The JavaScript engine failed: ${String(err)}`);
    } finally {
      this.deadline = Infinity;
    }
  }

  private errorText(handle: QuickJSHandle): string {
    try {
      const dumped = this.context.dump(handle) as unknown;
      if (dumped && typeof dumped === "object" && "message" in dumped) {
        const d = dumped as { name?: unknown; message?: unknown };
        return `${String(d.name ?? "Error")}: ${String(d.message)}`;
      }
      return String(dumped);
    } catch {
      return "an error that cannot be shown";
    }
  }
}

let loading: Promise<QuickJsEngine> | undefined;

/** The process's (or the worker's) one engine, loaded (a wasm instance) on first request. */
export function loadQuickJsEngine(): Promise<QuickJsEngine> {
  loading ??= (async () => {
    const pages = SANDBOX_LIMITS.memoryBytes / 65536;
    const wasmMemory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const wasmBinary = await Bun.file(wasmPath).arrayBuffer();
    const module = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory, wasmBinary }));
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(SANDBOX_LIMITS.memoryBytes);
    runtime.setMaxStackSize(SANDBOX_LIMITS.stackBytes);
    const context = runtime.newContext();
    const fns = context.unwrapResult(context.evalCode(DRIVER, "driver.js"));
    const [compileFn, batchFn, partialFn] = [0, 1, 2].map((i) => context.getProp(fns, i));
    fns.dispose();
    return new QuickJsEngine(runtime, context, compileFn, batchFn, partialFn);
  })();
  return loading;
}

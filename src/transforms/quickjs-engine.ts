/**
 * The TransformEngine on QuickJS compiled to WebAssembly (quickjs-emscripten): user code runs in
 * an interpreter inside a wasm instance, so it can reach nothing of this process (no process, fs,
 * network, timers, Bun or emulator globals exist there), a runtime-wide memory limit and a stack
 * limit are enforced by the interpreter's allocator, and an interrupt handler stops a call at its
 * deadline. One runtime and one context serve every transform: the driver freezes the realm, and
 * each call builds the user's closures afresh, so nothing passes between calls or transforms.
 */
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
const [N, M, J] = [78, 77, 74]; // "N", "M", "J"
const NEWLINE = 10;

/**
 * Strings in and out of the interpreter as UTF-8 bytes, straight through the wasm heap: the
 * library's newString/getString go through JavaScript strings (a decode and an encode per
 * message, and Emscripten's per-character copy), which cost more than the UDF itself. This uses
 * the library's internals (context.memory, context.ffi), pinned with its exact version.
 */
class HeapFull extends Error {}

class Heap {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly c: any;

  constructor(context: QuickJSContext) {
    this.c = context;
  }

  /** A QuickJS string from UTF-8 bytes holding no NUL (invalid sequences become U+FFFD). */
  newString(bytes: Uint8Array): QuickJSHandle {
    const { module } = this.c.memory;
    const ptr = module._malloc(bytes.length + 1);
    if (!ptr) throw new HeapFull();
    module.HEAPU8.set(bytes, ptr);
    module.HEAPU8[ptr + bytes.length] = 0;
    try {
      return this.c.memory.heapValueHandle(this.c.ffi.QTS_NewString(this.c.ctx.value, ptr));
    } finally {
      module._free(ptr);
    }
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

  /** A string's UTF-8 bytes (copied out of the heap). */
  getBytes(handle: QuickJSHandle): Uint8Array {
    const { module } = this.c.memory;
    const ptr = this.c.ffi.QTS_GetString(this.c.ctx.value, handle.value);
    const heap: Uint8Array = module.HEAPU8;
    const out = heap.slice(ptr, heap.indexOf(0, ptr));
    this.c.ffi.QTS_FreeCString(this.c.ctx.value, ptr);
    return out;
  }
}

/** A parsed attribute map as a null-prototype object: every key, `__proto__` too, stays data. */
function copyAttributes(parsed: Record<string, string>): Record<string, string> {
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

class QuickJsEngine implements TransformEngine {
  private deadline = Infinity;

  private readonly heap: Heap;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
    private readonly compileFn: QuickJSHandle,
  ) {
    this.heap = new Heap(context);
    runtime.setInterruptHandler(() => performance.now() > this.deadline);
  }

  compile(functionName: string, code: string): CompiledUdf | string {
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
        dispose: () => run.alive && run.dispose(),
      };
    } finally {
      name.dispose();
      src.dispose();
    }
  }

  private call(run: QuickJSHandle, message: UdfMessage, metadata: UdfMetadata): UdfOutcome {
    const ctx = this.context;
    const nul = message.data.includes(0);
    let data: QuickJSHandle | undefined;
    let input: QuickJSHandle | undefined;
    let out: QuickJSHandle | string;
    try {
      data = this.heap.newString(nul ? EMPTY : message.data);
      input = this.heap.newText(JSON.stringify(nul ? [message.attributes, metadata, decoder.decode(message.data)] : [message.attributes, metadata]));
      out = this.guarded(() => ctx.callFunction(run, ctx.undefined, data!, input!));
    } catch (e) {
      if (e instanceof HeapFull) return { ok: false, error: MEMORY_LIMIT };
      throw e;
    } finally {
      data?.dispose();
      input?.dispose();
    }
    if (typeof out === "string") return { ok: false, error: out };
    const bytes = this.heap.getBytes(out);
    out.dispose();
    const tag = bytes[0];
    if (tag === N) return { ok: true, message: null };
    if (tag === M) {
      // The attributes' JSON holds no raw newline, so the first one ends it; the rest is the data.
      const nl = bytes.indexOf(NEWLINE);
      return { ok: true, message: { data: bytes.subarray(nl + 1), attributes: copyAttributes(JSON.parse(decoder.decode(bytes.subarray(1, nl)))) } };
    }
    const text = decoder.decode(bytes.subarray(1));
    if (tag === J) {
      const [attrs, data] = JSON.parse(text) as [Record<string, string>, string];
      return { ok: true, message: { data: encoder.encode(data), attributes: copyAttributes(attrs) } };
    }
    return { ok: false, error: text === "InternalError: out of memory" ? MEMORY_LIMIT : bounded(text) };
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

let loading: Promise<TransformEngine> | undefined;

/** The process's one engine, loaded (a wasm instance) on first request. */
export function loadQuickJsEngine(): Promise<TransformEngine> {
  loading ??= (async () => {
    const pages = SANDBOX_LIMITS.memoryBytes / 65536;
    const wasmMemory = new WebAssembly.Memory({ initial: pages, maximum: pages });
    const wasmBinary = await Bun.file(wasmPath).arrayBuffer();
    const module = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory, wasmBinary }));
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(SANDBOX_LIMITS.memoryBytes);
    runtime.setMaxStackSize(SANDBOX_LIMITS.stackBytes);
    const context = runtime.newContext();
    const compileFn = context.unwrapResult(context.evalCode(DRIVER, "driver.js"));
    return new QuickJsEngine(runtime, context, compileFn);
  })();
  return loading;
}

/**
 * The QuickJS sandbox on its own: results and shapes, limits (time, memory, stack), no reach into
 * the host, nothing kept between calls, and code that tries to escape the function wrapper.
 */
import { describe, expect, test } from "bun:test";
import type { UdfMetadata } from "../../src/core/stages/transform-engine.ts";
import { SANDBOX_LIMITS, loadQuickJsEngine } from "../../src/transforms/quickjs-engine.ts";

const engine = await loadQuickJsEngine();

type TextOutcome = { ok: true; message: { data: string; attributes: Record<string, string> } | null } | { ok: false; error: string };

/** A compiled UDF called with text data, its outcome read back as text (the engine works in UTF-8 bytes). */
function compiled(name: string, code: string): { run(m: { data: string; attributes: Record<string, string> }, meta: UdfMetadata): TextOutcome } {
  const c = engine.compile(name, code);
  if (typeof c === "string") throw new Error(c);
  return {
    run(m, meta) {
      const r = c.run({ data: new TextEncoder().encode(m.data), attributes: m.attributes }, meta);
      if (!r.ok || r.message === null) return r as TextOutcome;
      return { ok: true, message: { data: new TextDecoder().decode(r.message.data), attributes: { ...r.message.attributes } } };
    },
  };
}

const msg = (data = "a", attributes: Record<string, string> = {}) => ({ data, attributes });

describe("results", () => {
  test("the message and metadata go in; data and attributes come out; null filters", () => {
    const f = compiled("f", "function f(m, md) { return { data: m.data + md.message_id + md.ordering_key, attributes: { t: md.publish_time } }; }");
    const r = f.run(msg("x"), { message_id: "7", publish_time: "2026-01-01T00:00:00Z", ordering_key: "k" });
    expect(r).toEqual({ ok: true, message: { data: "x7k", attributes: { t: "2026-01-01T00:00:00Z" } } });
    expect(compiled("g", "function g() { return null; }").run(msg(), {})).toEqual({ ok: true, message: null });
  });

  test("data holding NULs, newlines and non-ASCII text goes through whole; a __proto__ attribute stays data", () => {
    const f = compiled("f", "function f(m) { m.attributes.len = String(m.data.length); return m; }");
    const r = f.run(msg("a\0b\nc\u00e9\u{1F600}", JSON.parse('{"__proto__":"x"}')), {});
    expect(r.ok && r.message!.data).toBe("a\0b\nc\u00e9\u{1F600}");
    expect(r.ok && Object.keys(r.message!.attributes).sort()).toEqual(["__proto__", "len"]);
    expect(r.ok && r.message!.attributes.len).toBe("8");
  });

  test("a bad shape is a failure that says what was wrong", () => {
    const cases: [string, RegExp][] = [
      ["return undefined", /returned undefined/],
      ["return 'str'", /returned string/],
      ["return { data: 1 }", /'data' is a number/],
      ["return { attributes: {} }", /'data' is missing/],
      ["return { data: '', attributes: { a: 1 } }", /attribute "a" is a number/],
      ["return { data: '', attributes: [] }", /'attributes' must be an object/],
    ];
    for (const [body, re] of cases) {
      const r = compiled("f", `function f() { ${body} }`).run(msg(), {});
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(re);
    }
  });

  test("compile errors: syntax, a missing function, a name that is not an identifier, an escape from the wrapper", () => {
    expect(engine.compile("f", "function f( {")).toMatch(/SyntaxError/);
    expect(engine.compile("g", "function f() {}")).toMatch(/no function named g/);
    expect(engine.compile("a-b", "function f() {}")).toMatch(/not a JavaScript identifier/);
    expect(engine.compile("f", "}); let kept = 0; (function(){ function f(){ return { data: String(++kept) } }")).toMatch(/SyntaxError/);
  });
});

describe("limits and isolation", () => {
  test("an infinite loop stops at the time limit", () => {
    const r = compiled("f", "function f() { for (;;) {} }").run(msg(), {});
    expect(r).toEqual({ ok: false, error: `The function exceeded the time limit of ${SANDBOX_LIMITS.callMillis} ms` });
  });

  test("a huge allocation fails (memory or time), deep recursion is a stack overflow, and the engine still works", () => {
    const big = compiled("f", "function f() { const a = []; for (;;) a.push(new Uint8Array(1e6)); }").run(msg(), {});
    expect(big.ok).toBe(false);
    expect(!big.ok && big.error).toBe(`The function exceeded the memory limit of ${SANDBOX_LIMITS.memoryBytes / 1048576} MiB`);
    const deep = compiled("f", "function f() { return f(); }").run(msg(), {});
    expect(!deep.ok && deep.error).toMatch(/stack overflow/);
    expect(compiled("ok", "function ok(m) { return m; }").run(msg("fine"), {})).toEqual({ ok: true, message: { data: "fine", attributes: {} } });
  });

  test("no host globals: process, require, Bun, fetch, timers, console are absent", () => {
    const f = compiled("f", "function f() { return { data: [typeof process, typeof require, typeof Bun, typeof fetch, typeof setTimeout, typeof console].join() }; }");
    expect(f.run(msg(), {})).toEqual({ ok: true, message: { data: "undefined,undefined,undefined,undefined,undefined,undefined", attributes: {} } });
  });

  test("nothing survives a call: top-level state, globals, prototypes, intrinsics", () => {
    const f = compiled(
      "f",
      "let n = 0; function f() { n++; try { globalThis.g = 1; Object.prototype.p = 1; Array.prototype.push = null; JSON.stringify = null; } catch (e) {} " +
        "return { data: [n, typeof globalThis.g, typeof ({}).p, typeof [].push, typeof JSON.stringify].join() }; }",
    );
    const first = f.run(msg(), {});
    expect(first).toEqual({ ok: true, message: { data: "1,undefined,undefined,function,function", attributes: {} } });
    expect(f.run(msg(), {})).toEqual(first);
    const other = compiled("h", "function h() { return { data: typeof globalThis.g + typeof ({}).p }; }");
    expect(other.run(msg(), {})).toEqual({ ok: true, message: { data: "undefinedundefined", attributes: {} } });
  });

  test("a thrown non-Error, and a thrown value that cannot be shown", () => {
    expect(compiled("f", "function f() { throw 42; }").run(msg(), {})).toEqual({ ok: false, error: "a thrown value: 42" });
    const r = compiled("f", "function f() { throw { toString() { throw 1; } }; }").run(msg(), {});
    expect(r).toEqual({ ok: false, error: "a thrown value that cannot be shown" });
  });
});

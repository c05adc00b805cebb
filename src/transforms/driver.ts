/**
 * The code evaluated once in the sandbox before any user code: it holds private references to the
 * intrinsics it needs, deep-freezes everything reachable from globalThis (so no call can leave
 * state behind for the next), and returns `compile(name, code)`. Each compiled transform is a
 * factory made with the Function constructor: the user's code runs as a function body, so its
 * top-level declarations are fresh on every call, and a body that does not parse on its own (an
 * attempt to close the wrapper) is refused.
 *
 * One call's protocol: in, the data and JSON `[attributes, metadata, keep]`; out, one string: "N"
 * (filtered), "E" + an error text, "K" + the attributes' JSON (the data returned equals the data
 * given, and keep is 1: the host's bytes are valid UTF-8, so that string encodes back to those
 * very bytes and the host reuses them), or "M" + the attributes' JSON + "\n" + the data (JSON
 * escapes every newline, so the first one ends the attributes). The data, often the bulk, is
 * never JSON-encoded on either side — except data holding a NUL, which the engine's C strings
 * would cut: it goes in as a fourth element of the JSON and comes out as "J" + JSON
 * `[attributes, data]`.
 *
 * A batch (`batch(run, stop, inputs, ...datas)`, the worker pool's crossing) runs one compiled
 * transform on many messages in one entry: `inputs` is the JSON array of their inputs, and the
 * answer their outputs, each ending in a NUL (an error's text JSON-encoded after its "E", so no
 * output holds a raw NUL); with `stop` it ends after the first error. When the host interrupts a
 * batch (its deadline) `partial()` hands over the outputs made before.
 */
export const DRIVER = String.raw`(function () {
  "use strict";
  const G = globalThis;
  const parse = JSON.parse, stringify = JSON.stringify, Fn = Function;
  const freeze = Object.freeze, getProto = Object.getPrototypeOf, ownKeys = Reflect.ownKeys;
  const getDesc = Object.getOwnPropertyDescriptor, keys = Object.keys, isArray = Array.isArray;
  const ErrorCtor = Error, StringCtor = String;
  const seen = new Set();
  const todo = [G];
  while (todo.length > 0) {
    const o = todo.pop();
    if (seen.has(o)) continue;
    seen.add(o);
    for (const k of ownKeys(o)) {
      const d = getDesc(o, k);
      for (const v of [d.value, d.get, d.set]) if ((typeof v === "object" && v !== null) || typeof v === "function") todo.push(v);
    }
    const p = getProto(o);
    if (p !== null) todo.push(p);
    freeze(o);
  }
  function describe(e) {
    try {
      if (e instanceof ErrorCtor) return StringCtor(e.name) + ": " + StringCtor(e.message);
      if (typeof e === "symbol") return e.toString();
      // An allocation failing while the error itself is made leaves null as the exception.
      if (e === null) return "a thrown value: null (or the function ran out of memory)";
      return "a thrown value: " + StringCtor(e);
    } catch (_) {
      return "a thrown value that cannot be shown";
    }
  }
  function shape(out, input) {
    if (out === null) return "N";
    if (typeof out !== "object") return "EThe function returned " + (out === undefined ? "undefined" : typeof out) + "; it must return null or an object with a string 'data'";
    const data = out.data;
    if (typeof data !== "string") return "EThe returned object's 'data' is " + (data === undefined ? "missing" : "a " + typeof data) + "; it must be a string";
    const attrs = out.attributes;
    // The attributes' JSON, each value read once (a getter cannot change it after its check).
    let json = "{";
    if (attrs !== undefined && attrs !== null) {
      if (typeof attrs !== "object" || isArray(attrs)) return "EThe returned object's 'attributes' must be an object of strings";
      const ks = keys(attrs), vs = [];
      let raw = "";
      for (let i = 0; i < ks.length; i++) {
        const k = ks[i], v = attrs[k];
        if (typeof v !== "string") return "EThe returned attribute " + stringify(k.slice(0, 64)) + " is a " + typeof v + "; attribute values must be strings";
        vs.push(v);
        raw += k + v;
        json += (i === 0 ? "\"" : ",\"") + k + "\":\"" + v + "\"";
      }
      if (ESCAPED.test(raw)) {
        json = "{";
        for (let i = 0; i < ks.length; i++) json += (i === 0 ? "" : ",") + stringify(ks[i]) + ":" + stringify(vs[i]);
      }
    }
    json += "}";
    // Strict equality compares contents: the same string or an equal one, the same bytes out.
    if (data === input) return "K" + json;
    if (data.indexOf("\u0000") >= 0) return "J[" + json + "," + stringify(data) + "]";
    return "M" + json + "\n" + data;
  }
  // What JSON.stringify escapes in a string (its cost, ≈ 0.5 µs a call here, only when needed).
  const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;
  let done = [];
  const NUL = "\u0000";
  function batch(run, stop, inputs) {
    const items = parse(inputs);
    done = [];
    for (let i = 0; i < items.length; i++) {
      let out = run(arguments[i + 3], items[i]);
      const failed = out[0] === "E";
      if (failed) out = "E" + stringify(out.slice(1));
      done.push(out);
      if (stop && failed) break;
    }
    return partial();
  }
  function partial() {
    const all = done.length === 0 ? "" : done.join(NUL) + NUL;
    done = [];
    return all;
  }
  function compile(name, code) {
    new Fn(code);
    const factory = new Fn(code + "\n;return typeof " + name + " === \"function\" ? " + name + " : undefined;");
    if (factory() === undefined) throw new ErrorCtor("no function named " + name + " is declared in the code");
    return function run(data, input) {
      try {
        const args = typeof input === "string" ? parse(input) : input;
        const fn = factory();
        // Data holding a NUL comes in the JSON and never keeps (the host's bytes are not its argument).
        const whole = args.length > 3;
        return shape(fn({ data: whole ? args[3] : data, attributes: args[0] }, args[1]), args[2] === 1 && !whole ? data : undefined);
      } catch (e) {
        return "E" + describe(e);
      }
    };
  }
  return [compile, batch, partial];
})()`;

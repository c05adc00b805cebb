/**
 * A UDF that hands back its message's data (the same string or one equal to it) answers "keep" and
 * the host reuses the message's own bytes instead of copying the string out of the interpreter.
 * That must change no outcome, byte for byte: the batch without keep (`keepable` false, the
 * interpreter's string encoded back as before) against the batch with it and the single call,
 * over random bytes (invalid UTF-8, NULs, surrogates' encodings) and UDFs that keep, change or
 * rebuild the data.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { batchItem, loadQuickJsEngine, type BatchOutcome, type BatchUdf } from "../../src/transforms/quickjs-engine.ts";
import { WorkerPool } from "../../src/transforms/udf-pool.ts";
import type { PoolOutcome, UdfOutcome } from "../../src/core/stages/transform-engine.ts";

const engine = await loadQuickJsEngine();

const BODIES = [
  "return message;",
  "message.attributes.seen = '1'; return message;",
  "return { data: message.data };",
  "return { data: message.data, attributes: { n: String(message.data.length) } };",
  // Equal contents in a string of its own.
  "return { data: message.data.split('').join(''), attributes: message.attributes };",
  "return { data: (message.data + 'x').slice(0, -1) };",
  "return { data: String(metadata.message_id) === 'x' ? '' : message.data.slice(0) };",
  // Changed data: longer, shorter (maybe half a surrogate pair), NULs, lone surrogates, U+FFFD.
  "message.data = message.data + 'é'; return message;",
  "message.data = message.data.toUpperCase(); return message;",
  "return { data: message.data.slice(1) };",
  "return { data: message.data + '\\u0000' };",
  "return { data: String.fromCharCode(0xD800) + message.data };",
  "return { data: '\\uFFFD' };",
  "return { data: '' };",
  "return message.data.length % 2 ? null : message;",
  "if (message.data.length % 3 === 1) throw new Error(message.data.slice(0, 20)); return message;",
];

const udfs = BODIES.map((body) => {
  const c = engine.compile("f", `function f(message, metadata) { ${body} }`);
  if (typeof c === "string") throw new Error(c);
  return c;
});

/** An outcome in one comparable shape: the data as hex, attributes parsed. */
type Plain = { tag: "N" } | { tag: "E"; error: string } | { tag: "M"; attributes: Record<string, string>; data: string };

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length).toString("hex");

function fromBatch(o: BatchOutcome): Plain {
  return o.tag === "M" ? { tag: "M", attributes: JSON.parse(o.attributes), data: hex(o.data) } : o;
}

function fromPool(o: PoolOutcome | undefined): Plain | undefined {
  if (o === undefined || o.kind === "filtered") return o && { tag: "N" };
  if (o.kind === "failed") return { tag: "E", error: o.error };
  return { tag: "M", attributes: { ...o.attributes }, data: hex(o.data) };
}

function fromCall(o: UdfOutcome): Plain {
  if (!o.ok) return { tag: "E", error: o.error };
  if (o.message === null) return { tag: "N" };
  return { tag: "M", attributes: { ...o.message.attributes }, data: hex(o.message.data) };
}

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }).map(utf8),
  fc.string({ unit: "binary", maxLength: 20 }).map(utf8),
  // Valid text with stray bytes in it: continuation bytes, lead bytes, surrogates' and overlong encodings.
  fc
    .array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 6 }).map(utf8), fc.constantFrom(...[[0x80], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0], [0xef, 0xbf, 0xbd]].map((b) => new Uint8Array(b)))), { maxLength: 6 })
    .map((parts) => new Uint8Array(Buffer.concat(parts))),
);

/** Strings with what JSON escapes (quotes, backslashes, control characters, lone surrogates) and what it does not. */
const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', "\\", "\u0000", "\n", "\u001f", "\ud800", "\udfff", "\u2028", "\u007f", "é", "😀"), fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 })), maxLength: 6 });
const attributes = fc.dictionary(fc.oneof(text, fc.constantFrom("0", "7", "__proto__", "toJSON")), text, { maxKeys: 4, noNullPrototype: true });

const message = fc.record({ data: bytes, attributes });

function runAll(udf: BatchUdf, messages: { data: Uint8Array; attributes: Record<string, string> }[]) {
  const meta = { message_id: "1", publish_time: "2026-01-01T00:00:00Z" };
  const items = (keepable: boolean) =>
    messages.map((m) => batchItem(m.data, JSON.stringify(m.attributes), JSON.stringify(meta), keepable));
  return {
    before: udf.runBatch(items(false), false).map(fromBatch),
    batch: udf.runBatch(items(true), false).map(fromBatch),
    call: messages.map((m) => fromCall(udf.run(m, meta))),
  };
}

describe("keeping the message's own bytes", () => {
  test("changes no outcome: random bytes and attributes, UDFs that keep, rebuild or change the data", () => {
    fc.assert(
      fc.property(fc.nat(udfs.length - 1), fc.array(message, { minLength: 1, maxLength: 5 }), (u, messages) => {
        const { before, batch, call } = runAll(udfs[u], messages);
        expect(batch).toEqual(before);
        expect(call).toEqual(before);
      }),
      { numRuns: 2000 },
    );
  });

  test("attributes come back as they went in, in their order, whatever they hold", () => {
    const udf = udfs[1];
    fc.assert(
      fc.property(attributes, (attrs) => {
        const out = udf.run({ data: utf8("x"), attributes: attrs }, {});
        expect(out.ok).toBe(true);
        const got = out.ok && out.message ? out.message.attributes : {};
        expect(Object.entries(got)).toEqual(Object.entries({ ...attrs, seen: "1" }));
      }),
      { numRuns: 1000 },
    );
  });

  test("valid UTF-8 handed back is the message's own bytes; invalid UTF-8 and data with a NUL are the interpreter's", () => {
    const udf = udfs[1];
    const meta = { message_id: "1" };
    const cases: [Uint8Array, boolean][] = [
      [utf8('{"a":"é😀"}'), true],
      [new Uint8Array([0x61, 0xff, 0x62]), false],
      [new Uint8Array([0x61, 0, 0x62]), false],
    ];
    for (const [data, kept] of cases) {
      const item = batchItem(data, "{}", JSON.stringify(meta));
      const [out] = udf.runBatch([item], false);
      expect(out.tag === "M" && out.data === item.data).toBe(kept);
      const r = udf.run({ data, attributes: {} }, meta);
      expect(r.ok && r.message !== null && r.message.data === data).toBe(kept);
      expect(r.ok && r.message?.attributes.seen).toBe("1");
    }
  });

  test("through the worker pool: each result as on this thread, kept data the input's own bytes (mixed batches, two steps)", async () => {
    const pool = new WorkerPool(1);
    let kept = 0;
    let copied = 0;
    const step = (i: number) => ({ kind: "javascript_udf" as const, name: "f", code: `function f(message, metadata) { ${BODIES[i]} }` });
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(udfs.length - 1), { minLength: 1, maxLength: 2 }), fc.array(message, { minLength: 1, maxLength: 6 }), async (steps, messages) => {
          const chain = pool.chain(steps.map(step));
          const meta = { message_id: "1" };
          const outs = await chain.run(messages.map((m) => ({ ...m, meta })), false);
          chain.dispose();
          const expected = messages.map((m) => {
            let cur: UdfOutcome = { ok: true, message: m };
            for (const s of steps) if (cur.ok && cur.message) cur = udfs[s].run(cur.message, meta);
            return fromCall(cur);
          });
          expect(outs.map(fromPool)).toEqual(expected);
          outs.forEach((o, i) => o?.kind === "message" && (o.data === messages[i].data ? kept++ : copied++));
        }),
        { numRuns: 200 },
      );
      // Both ways back were taken: the input's own array, and data that crossed back.
      expect(kept).toBeGreaterThan(0);
      expect(copied).toBeGreaterThan(0);
      // Unchanged valid UTF-8 comes back as the input's own array, through every step that keeps it.
      const keep = pool.chain([step(1), step(0)]);
      const data = utf8("{\"a\":1}");
      const [out] = await keep.run([{ data, attributes: {}, meta: {} }], true);
      expect(out?.kind === "message" && out.data === data).toBe(true);
      keep.dispose();
    } finally {
      pool.close();
    }
  }, 60_000);
});

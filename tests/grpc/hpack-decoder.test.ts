/**
 * The raw server's HPACK decoder (src/grpc/h2/hpack*.ts) against the RFC's examples, against
 * hpack.js's compressor (Huffman coded or not, the dynamic table carried from block to block), and
 * against the decoder it replaced — hpack.js's own decoder and table, walked the same way — on
 * arbitrary blocks: the same fields, the same checks, the same blocks refused.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import hpack from "hpack.js";
import { FieldCheck } from "../../src/grpc/h2/fields.ts";
import { CompressionError, HeaderBomb, HeaderDecoder, type Headers } from "../../src/grpc/h2/hpack.ts";
import { hpackBlock } from "../fuzz/h2-arbitraries.ts";
import { fuzzSeed } from "../fuzz/generators.ts";

const SEED = fuzzSeed(20261127);
const LIST_LIMIT = 8192;

type Outcome = { fields: [string, string][] | null; error: string | null; poisoned: boolean } | "CompressionError" | "HeaderBomb";

function outcome(decode: (block: Buffer, check: FieldCheck) => Headers | null, block: Buffer): Outcome {
  const check = new FieldCheck();
  check.start(false);
  try {
    const out = decode(block, check);
    return { fields: out && Object.entries(out), error: check.error, poisoned: check.poisoned };
  } catch (e) {
    if (e instanceof HeaderBomb) return "HeaderBomb";
    if (e instanceof CompressionError) return "CompressionError";
    throw e;
  }
}

/** The decoder before: hpack.js's decoder and table, one field at a time (as src/grpc/h2/hpack.ts walked them). */
function referenceDecoder(tableSize: number, maxListSize: number) {
  const lib = hpack as unknown as {
    decoder: { create(): { push(b: Buffer): void; isEmpty(): boolean; decodeBit(): number; decodeInt(): number; decodeStr(): ArrayLike<number> } };
    table: { create(o: { maxSize: number }): { lookup(i: number): { name: string; value: string; nameSize: number }; add(n: string, v: string, ns: number, vs: number): void; updateSize(n: number): void } };
  };
  const table = lib.table.create({ maxSize: tableSize });
  const text = (b: ArrayLike<number>) => Buffer.from(b as Uint8Array).toString("latin1");
  return (block: Buffer, check: FieldCheck): Headers | null => {
    const d = lib.decoder.create();
    const out: Headers = Object.create(null);
    let size = 0;
    let fields = 0;
    try {
      d.push(block);
      while (!d.isEmpty()) {
        let name: string;
        let value: string;
        if (d.decodeBit()) {
          ({ name, value } = table.lookup(d.decodeInt()));
        } else {
          const incremental = d.decodeBit();
          if (!incremental) {
            if (d.decodeBit()) {
              if (fields > 0) throw new CompressionError("size update after a field");
              table.updateSize(d.decodeInt());
              continue;
            }
            d.decodeBit();
          }
          const index = d.decodeInt();
          let nameSize: number;
          if (index === 0) {
            const raw = d.decodeStr();
            nameSize = raw.length;
            name = text(raw);
          } else {
            const e = table.lookup(index);
            name = e.name;
            nameSize = e.nameSize;
          }
          const raw = d.decodeStr();
          value = text(raw);
          check.literal(index === 0 ? name : null, value, incremental === 1);
          if (incremental) table.add(name, value, nameSize, raw.length);
        }
        fields++;
        check.field(name, value);
        size += name.length + value.length + 32;
        if (size <= maxListSize) out[name] = value;
        else if (size > 4 * maxListSize) throw new HeaderBomb("bomb");
      }
    } catch (e) {
      if (e instanceof HeaderBomb) throw e;
      throw new CompressionError("bad block");
    }
    return size <= maxListSize ? out : null;
  };
}

describe("HPACK decoder", () => {
  test("RFC 7541 C.4: requests with Huffman coding, the dynamic table carried over", () => {
    const d = new HeaderDecoder(4096, LIST_LIMIT);
    const blocks = ["828684418cf1e3c2e5f23a6ba0ab90f4ff", "828684be5886a8eb10649cbf", "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf"];
    const got = blocks.map((hex) => outcome((b, c) => d.decode(b, c), Buffer.from(hex, "hex")));
    expect(got).toEqual([
      { fields: [[":method", "GET"], [":scheme", "http"], [":path", "/"], [":authority", "www.example.com"]], error: null, poisoned: false },
      { fields: [[":method", "GET"], [":scheme", "http"], [":path", "/"], [":authority", "www.example.com"], ["cache-control", "no-cache"]], error: null, poisoned: false },
      { fields: [[":method", "GET"], [":scheme", "https"], [":path", "/index.html"], [":authority", "www.example.com"], ["custom-key", "custom-value"]], error: null, poisoned: false },
    ]);
  });

  test("whatever hpack.js's compressor writes, Huffman coded or not, decodes to the same fields", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
    const value = fc.oneof(fc.string({ maxLength: 60 }).map((s) => Buffer.from(s, "utf8").toString("latin1")), fc.constantFrom("application/grpc", "trailers", "gzip"));
    const header = fc.record({ name, value, huffman: fc.boolean(), neverIndex: fc.boolean() });
    fc.assert(
      fc.property(fc.array(fc.array(header, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }), (blocks) => {
        const comp = (hpack as unknown as { compressor: { create(o: { table: { size: number } }): { write(h: unknown[]): void; read(): Buffer | null } } }).compressor.create({ table: { size: 4096 } });
        const d = new HeaderDecoder(4096, 1 << 20);
        for (const headers of blocks) {
          comp.write(headers);
          const parts: Buffer[] = [];
          for (let b = comp.read(); b; b = comp.read()) parts.push(b);
          const fields = d.decode(Buffer.concat(parts), new FieldCheck());
          const want: Headers = Object.create(null);
          for (const h of headers) want[h.name] = h.value;
          expect(fields && Object.entries(fields)).toEqual(Object.entries(want));
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  test("arbitrary blocks: the same outcome as hpack.js's decoder and table, block after block", () => {
    fc.assert(
      fc.property(fc.array(hpackBlock, { minLength: 1, maxLength: 6 }), fc.constantFrom(4096, 256, 0), (blocks, tableSize) => {
        const ours = new HeaderDecoder(tableSize, 512);
        const before = referenceDecoder(tableSize, 512);
        for (const block of blocks) {
          const a = outcome((b, c) => ours.decode(b, c), block);
          expect(a).toEqual(outcome(before, block));
          if (typeof a === "string") break; // the connection ends: its table is lost
        }
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  test("Huffman strings: padding past 7 bits, padding that is not EOS, and EOS itself are refused", () => {
    const d = () => new HeaderDecoder(4096, LIST_LIMIT);
    // A literal without indexing, new name "a" (plain), value Huffman coded in `bytes`.
    const block = (bytes: number[]) => Buffer.from([0x00, 0x01, 0x61, 0x80 | bytes.length, ...bytes]);
    expect(outcome((b, c) => d().decode(b, c), block([0x1f]))).toEqual({ fields: [["a", "a"]], error: null, poisoned: false }); // 'a' = 00011, padding 111
    expect(outcome((b, c) => d().decode(b, c), block([0x1f, 0xff]))).toBe("CompressionError"); // 11 bits of padding
    expect(outcome((b, c) => d().decode(b, c), block([0x18]))).toBe("CompressionError"); // padding 000
    expect(outcome((b, c) => d().decode(b, c), block([0xff, 0xff, 0xff, 0xff]))).toBe("CompressionError"); // EOS (30 ones)
  });

  test("integers: past 32 bits, cut off, and indexes past the table are refused", () => {
    const d = () => new HeaderDecoder(4096, LIST_LIMIT);
    expect(outcome((b, c) => d().decode(b, c), Buffer.from([0xff, 0x80, 0x80, 0x80, 0x80, 0x01]))).toBe("CompressionError");
    expect(outcome((b, c) => d().decode(b, c), Buffer.from([0xff, 0x80]))).toBe("CompressionError");
    expect(outcome((b, c) => d().decode(b, c), Buffer.from([0xbe]))).toBe("CompressionError"); // index 62, an empty dynamic table
    expect(outcome((b, c) => d().decode(b, c), Buffer.from([0x80]))).toBe("CompressionError"); // index 0
    expect(outcome((b, c) => d().decode(b, c), Buffer.from([0x3f, 0xe1, 0x1f]))).toEqual({ fields: [], error: null, poisoned: false }); // a size update to 4096
    expect(outcome((b, c) => d().decode(b, c), Buffer.from([0x3f, 0xe2, 0x1f]))).toBe("CompressionError"); // size 4096 + 1
  });
});

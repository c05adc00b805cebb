/**
 * The Compression transform's algorithms on node:zlib: ZLIB (RFC 1950) and Zstandard (RFC 8878),
 * required on the first message that uses one (node:zlib stays out of the start path: idle RSS).
 */
import type { CompressionAlgorithm, CompressionCodec } from "../core/stages/transform-engine.ts";

type Zlib = typeof import("node:zlib");
let zlib: Zlib | null = null;
const load = (): Zlib => (zlib ??= require("node:zlib") as Zlib);

export const nodeCompression: CompressionCodec = {
  compress: (algorithm: CompressionAlgorithm, data) => (algorithm === "ZSTD" ? load().zstdCompressSync(data) : load().deflateSync(data)),
  decompress(algorithm, data, maxBytes) {
    try {
      const z = load();
      return algorithm === "ZSTD" ? z.zstdDecompressSync(data, { maxOutputLength: maxBytes }) : z.inflateSync(data, { maxOutputLength: maxBytes });
    } catch (e) {
      // The library's own words ("incorrect header check", "Unknown frame descriptor"), or the bound.
      if (e instanceof RangeError) return `the decompressed data exceed ${maxBytes} bytes`;
      return e instanceof Error ? e.message.slice(0, 200) : `not ${algorithm} data`;
    }
  },
};

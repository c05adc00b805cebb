/**
 * The Compression transform's ZLIB (RFC 1950) on node:zlib, required on the first message that
 * uses it (node:zlib stays out of the start path: idle RSS).
 */
import type { ZlibCodec } from "../core/stages/transform-engine.ts";

type Zlib = typeof import("node:zlib");
let zlib: Zlib | null = null;
const load = (): Zlib => (zlib ??= require("node:zlib") as Zlib);

export const nodeZlib: ZlibCodec = {
  deflate: (data) => load().deflateSync(data),
  inflate(data, maxBytes) {
    try {
      return load().inflateSync(data, { maxOutputLength: maxBytes });
    } catch (e) {
      // zlib's own words ("incorrect header check", "unexpected end of file"), or the bound.
      if (e instanceof RangeError) return `the decompressed data exceed ${maxBytes} bytes`;
      return e instanceof Error ? e.message.slice(0, 200) : "not ZLIB data";
    }
  },
};

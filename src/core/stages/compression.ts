/**
 * MessageTransform.compression (googleapis 2026-08): ZLIB COMPRESS or DECOMPRESS of the message
 * data, attributes untouched. It runs as a step of the TransformChain like a UDF, so its order
 * among the UDFs is the list's, and data that do not inflate fail the step the way a throwing UDF
 * does (publish refused; at delivery, an attempt).
 */
import { invalid } from "../errors.ts";
import { echo } from "../bounded.ts";
import { LIMITS } from "../rules/limits.ts";
import type { CompiledUdf, UdfMessage, ZlibCodec } from "./transform-engine.ts";

export interface CompressionProto {
  compressionAlgorithm?: string | number | null;
  compressionMode?: string | number | null;
}

export type CompressionMode = "COMPRESS" | "DECOMPRESS";

// Enums arrive by name (gRPC, REST) or by number (REST's enum-encoding=int, provisioning files).
const isZlib = (v: unknown) => v === "ZLIB" || v === 1;
const modeOf = (v: unknown): CompressionMode | undefined =>
  v === "COMPRESS" || v === 1 ? "COMPRESS" : v === "DECOMPRESS" || v === 2 ? "DECOMPRESS" : undefined;
const unset = (v: unknown) => v === undefined || v === null || v === 0 || v === "" || (typeof v === "string" && v.endsWith("_UNSPECIFIED"));

/** Checks one compression transform (`at` names it); returns its mode. */
export function checkCompression(c: CompressionProto, at: string): CompressionMode {
  if (unset(c.compressionAlgorithm)) throw invalid(`${at}.compression.compression_algorithm is required.`);
  if (!isZlib(c.compressionAlgorithm)) {
    throw invalid(`${at}.compression.compression_algorithm "${echo(c.compressionAlgorithm)}" is not supported; the supported algorithm is ZLIB.`);
  }
  if (unset(c.compressionMode)) throw invalid(`${at}.compression.compression_mode is required.`);
  const mode = modeOf(c.compressionMode);
  if (!mode) throw invalid(`${at}.compression.compression_mode "${echo(c.compressionMode)}" is not one of COMPRESS, DECOMPRESS.`);
  return mode;
}

/**
 * The step. DECOMPRESS inflates at most the largest message data the service takes (a small
 * message cannot make us hold more); the result's own limits are checked after the chain.
 */
export function compressionStep(codec: ZlibCodec, mode: CompressionMode): CompiledUdf {
  return {
    run(message: UdfMessage) {
      if (mode === "COMPRESS") return { ok: true, message: { data: codec.deflate(message.data), attributes: message.attributes } };
      const out = codec.inflate(message.data, LIMITS.messageDataBytes);
      if (typeof out === "string") return { ok: false, error: `ZLIB decompression failed: ${out}` };
      return { ok: true, message: { data: out, attributes: message.attributes } };
    },
    dispose() {},
  };
}

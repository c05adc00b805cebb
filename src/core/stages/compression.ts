/**
 * MessageTransform.compression (googleapis 2026-08; ZSTD since the clients of 2026-11): ZLIB or
 * Zstandard COMPRESS or DECOMPRESS of the message data, attributes untouched. It runs as a step of the TransformChain like a UDF, so its order
 * among the UDFs is the list's, and data that do not inflate fail the step the way a throwing UDF
 * does (publish refused; at delivery, an attempt).
 */
import { invalid } from "../errors.ts";
import { echo } from "../bounded.ts";
import { LIMITS } from "../rules/limits.ts";
import type { CompiledUdf, CompressionAlgorithm, CompressionCodec, UdfMessage } from "./transform-engine.ts";

export interface CompressionProto {
  compressionAlgorithm?: string | number | null;
  compressionMode?: string | number | null;
}

export type CompressionMode = "COMPRESS" | "DECOMPRESS";

export interface CompressionSpec {
  algorithm: CompressionAlgorithm;
  mode: CompressionMode;
}

// Enums arrive by name (gRPC, REST) or by number (REST's enum-encoding=int, provisioning files).
const algorithmOf = (v: unknown): CompressionAlgorithm | undefined => (v === "ZLIB" || v === 1 ? "ZLIB" : v === "ZSTD" || v === 3 ? "ZSTD" : undefined);
const modeOf = (v: unknown): CompressionMode | undefined =>
  v === "COMPRESS" || v === 1 ? "COMPRESS" : v === "DECOMPRESS" || v === 2 ? "DECOMPRESS" : undefined;
const unset = (v: unknown) => v === undefined || v === null || v === 0 || v === "" || (typeof v === "string" && v.endsWith("_UNSPECIFIED"));

/** Checks one compression transform (`at` names it). */
export function checkCompression(c: CompressionProto, at: string): CompressionSpec {
  if (unset(c.compressionAlgorithm)) throw invalid(`${at}.compression.compression_algorithm is required.`);
  const algorithm = algorithmOf(c.compressionAlgorithm);
  if (!algorithm) {
    throw invalid(`${at}.compression.compression_algorithm "${echo(c.compressionAlgorithm)}" is not supported; the supported algorithms are ZLIB and ZSTD.`);
  }
  if (unset(c.compressionMode)) throw invalid(`${at}.compression.compression_mode is required.`);
  const mode = modeOf(c.compressionMode);
  if (!mode) throw invalid(`${at}.compression.compression_mode "${echo(c.compressionMode)}" is not one of COMPRESS, DECOMPRESS.`);
  return { algorithm, mode };
}

/**
 * The step. DECOMPRESS inflates at most the largest message data the service takes (a small
 * message cannot make us hold more); the result's own limits are checked after the chain.
 */
export function compressionStep(codec: CompressionCodec, { algorithm, mode }: CompressionSpec): CompiledUdf {
  return {
    run(message: UdfMessage) {
      if (mode === "COMPRESS") return { ok: true, message: { data: codec.compress(algorithm, message.data), attributes: message.attributes } };
      const out = codec.decompress(algorithm, message.data, LIMITS.messageDataBytes);
      if (typeof out === "string") return { ok: false, error: `${algorithm} decompression failed: ${out}` };
      return { ok: true, message: { data: out, attributes: message.attributes } };
    },
    dispose() {},
  };
}

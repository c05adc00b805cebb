/**
 * What the core needs from a JavaScript engine to run message transforms. The engine itself
 * (src/transforms/) holds the sandbox and its clock; the core only compiles and calls.
 */

/**
 * A message going into or out of a UDF: the data as UTF-8 bytes (the UDF sees them as a string),
 * attributes as a string map.
 */
export interface UdfMessage {
  data: Uint8Array;
  attributes: Readonly<Record<string, string>>;
}

/** Metadata as the real service passes it; each key only when present. */
export interface UdfMetadata {
  message_id?: string;
  publish_time?: string;
  ordering_key?: string;
}

/** One call's outcome: the new message, null when the UDF filtered it, or an error text. */
export type UdfOutcome = { ok: true; message: UdfMessage | null } | { ok: false; error: string };

export interface CompiledUdf {
  run(message: UdfMessage, metadata: UdfMetadata): UdfOutcome;
  /** Frees what the engine holds for it; a resource's transforms replaced or gone. */
  dispose(): void;
}

export interface TransformEngine {
  /** Compiles `code` and finds `functionName` in it; a string is the compile error. */
  compile(functionName: string, code: string): CompiledUdf | string;
  /**
   * Where chains with JavaScript UDFs run off the event loop (worker threads); without it they
   * run on compile's UDFs, in the caller's turn.
   */
  readonly pool?: UdfPool | null;
}

/** A step as the pool runs it: a UDF by its source (compile checked it), or a compression. */
export type PoolStep =
  | { kind: "javascript_udf"; name: string; code: string }
  | { kind: "compression"; algorithm: CompressionAlgorithm; mode: "COMPRESS" | "DECOMPRESS" };

export interface PoolInput {
  data: Uint8Array;
  attributes: Readonly<Record<string, string>>;
  meta: UdfMetadata;
}

/** One message through a pooled chain; `step` indexes the chain's steps. */
export type PoolOutcome =
  | { kind: "message"; data: Uint8Array; attributes: Readonly<Record<string, string>> }
  | { kind: "filtered" }
  | { kind: "failed"; step: number; error: string };

export interface PooledChain {
  /**
   * The chain on each message, in order (steps apply in order to each message). With `stop`, the
   * messages after the first failing one may be left out (undefined): a Publish fails there.
   * Never rejects: a pool that cannot run fails the messages.
   */
  run(messages: readonly PoolInput[], stop: boolean): Promise<(PoolOutcome | undefined)[]>;
  dispose(): void;
}

export interface UdfPool {
  chain(steps: readonly PoolStep[]): PooledChain;
}

export type CompressionAlgorithm = "ZLIB" | "ZSTD";

/**
 * The Compression transform's algorithms; the server gives node:zlib's (the core imports no node:
 * module). `decompress` never returns more than `maxBytes`: a string says why it failed.
 */
export interface CompressionCodec {
  compress(algorithm: CompressionAlgorithm, data: Uint8Array): Uint8Array;
  decompress(algorithm: CompressionAlgorithm, data: Uint8Array, maxBytes: number): Uint8Array | string;
}

/** An ai_inference transform as configured: its Vertex AI endpoint name and unstructured_inference.parameters (a Struct). */
export interface AiInferenceSpec {
  readonly endpoint: string;
  readonly parameters: unknown;
}

/**
 * Calls the model an ai_inference transform names (the server gives an HTTP caller: the core
 * does no I/O). The outcome is the message the step hands on, or why it failed; it never rejects.
 */
export interface AiInferenceCaller {
  infer(spec: AiInferenceSpec, message: UdfMessage): Promise<UdfOutcome>;
}

/**
 * What crosses between the UDF pool (udf-pool.ts) and its workers (udf-worker.ts). A batch's data
 * travel as one transferred buffer and its attributes as JSON text, so a crossing costs a few
 * copies, not a structured clone per message.
 */
import type { PoolStep } from "../core/stages/transform-engine.ts";

export type ToWorker =
  | { t: "chain"; id: number; steps: readonly PoolStep[] }
  | { t: "drop"; id: number }
  | {
      t: "run";
      job: number;
      id: number;
      /** Each group (a Publish) ends at its first failure. */
      stop: boolean;
      /** Where each group of messages ends (the batches that cross together). */
      groups: Uint32Array;
      /**
       * Per message, the JSON of its attributes and of its metadata, joined by newlines (JSON
       * holds none raw): one string crosses, not one per message.
       */
      attributes: string;
      meta: string;
      /** The messages' data one after another; ends[i] is where message i's ends. */
      data: ArrayBuffer;
      ends: Uint32Array;
    };

export const NOT_RUN = 0;
export const MESSAGE = 1;
export const FILTERED = 2;
export const FAILED = 3;
/** A result whose data are its input's, byte for byte: they do not cross back (the pool has them). */
export const KEPT = 4;

export interface FromWorker {
  job: number;
  /** Per message: NOT_RUN, MESSAGE, KEPT, FILTERED or FAILED. */
  kinds: Uint8Array;
  /** Per failed message, the step that failed. */
  steps: Uint8Array;
  /** A JSON array: per message its attributes (MESSAGE, KEPT), its error text (FAILED), or 0. */
  texts: string;
  /** The data of the MESSAGE results one after another; ends as above. */
  data: ArrayBuffer;
  ends: Uint32Array;
}

/**
 * The event-loop side of the checkpoint worker (checkpoint-worker.ts): after a commit it tells the
 * worker the WAL has grown, at most once per checkpoint, so a commit costs one flag test.
 *
 * A WAL starts over from its beginning only when a write finds every frame checkpointed; under a
 * steady stream of commits the worker never catches up exactly, and the WAL would grow without
 * end. So once the worker reports a WAL past RESET_FRAMES, the event loop checkpoints the few
 * frames written since, on its own connection between two commits: then everything is
 * checkpointed and the next commit writes from the start of the file again.
 */
import { log } from "../runtime/log.ts";
import { workerEntryOf } from "../runtime/worker-entry.ts";

/** The worker's entry (runtime/worker-entry.ts: from source, or in the compiled binary). */
export function workerEntry(moduleUrl = import.meta.url): string | URL {
  return workerEntryOf(moduleUrl, "./checkpoint-worker.ts", "./persistence/checkpoint-worker.js");
}

import type { Database } from "bun:sqlite";

const RESET_FRAMES = 16_384; // 64 MiB of 4 KiB pages

export class Checkpointer {
  private worker: Worker;
  private pending = false;
  private failed = false;
  private closedFlag = new Int32Array(new SharedArrayBuffer(4));

  constructor(file: string, private db: Database) {
    this.worker = new Worker(workerEntry());
    // Bun's Worker has unref() (the DOM typings do not): the worker must not keep the process alive.
    (this.worker as unknown as { unref(): void }).unref();
    this.worker.onmessage = (e: MessageEvent<{ type: string; frames?: number; message?: string }>) => {
      this.pending = false;
      if (e.data.type === "error") log.warn(`checkpoint of ${file} failed (the WAL keeps the data; retried after the next commit): ${e.data.message}`);
      else if ((e.data.frames ?? 0) >= RESET_FRAMES) this.catchUp(file);
    };
    this.worker.onerror = (e) => this.fail(file, e.message);
    this.worker.postMessage({ type: "open", file, closed: this.closedFlag.buffer });
  }

  /** A commit wrote to the WAL (and maybe to `bodies`, the current body segment, synced first). */
  dirty(bodies?: string): void {
    if (this.pending || this.failed) return;
    this.pending = true;
    this.worker.postMessage({ type: "dirty", bodies });
  }

  /** Without the worker, SQLite checkpoints on the event loop again, every 1,000 pages. */
  private fail(file: string, why: string): void {
    if (this.failed) return;
    this.failed = true;
    log.warn(`the checkpoint worker for ${file} stopped (${why}); checkpoints now run on the event loop`);
    this.db.run("PRAGMA wal_autocheckpoint = 1000");
    this.worker.terminate();
  }

  private catchUp(file: string): void {
    try {
      const t0 = performance.now();
      this.db.run("PRAGMA wal_checkpoint(PASSIVE)");
      log.debug(`WAL of ${file} starts over: the last frames were checkpointed in ${(performance.now() - t0).toFixed(1)} ms`);
    } catch (e) {
      log.warn(`checkpoint of ${file} failed (the WAL keeps the data): ${(e as Error).message}`);
    }
  }

  /** Closes the worker's connection (waiting for it, bounded) so the last one can fold the WAL in. */
  close(): void {
    if (this.failed) return;
    this.worker.postMessage({ type: "close" });
    Atomics.wait(this.closedFlag, 0, 0, 10_000);
    this.worker.terminate();
  }
}

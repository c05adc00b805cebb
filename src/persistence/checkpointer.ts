/**
 * The event-loop side of the checkpoint worker (checkpoint-worker.ts): after a commit it tells the
 * worker the WAL has grown, at most once per checkpoint, so a commit costs one flag test.
 */
import { log } from "../log.ts";

export class Checkpointer {
  private worker: Worker;
  private pending = false;
  private closedFlag = new Int32Array(new SharedArrayBuffer(4));

  constructor(file: string) {
    this.worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url));
    // Bun's Worker has unref() (the DOM typings do not): the worker must not keep the process alive.
    (this.worker as unknown as { unref(): void }).unref();
    this.worker.onmessage = (e: MessageEvent<{ type: string; message?: string }>) => {
      this.pending = false;
      if (e.data.type === "error") log.warn(`checkpoint of ${file} failed (the WAL keeps the data; retried after the next commit): ${e.data.message}`);
    };
    this.worker.postMessage({ type: "open", file, closed: this.closedFlag.buffer });
  }

  /** A commit wrote to the WAL. */
  dirty(): void {
    if (this.pending) return;
    this.pending = true;
    this.worker.postMessage({ type: "dirty" });
  }

  /** Closes the worker's connection (waiting for it, bounded) so the last one can fold the WAL in. */
  close(): void {
    this.worker.postMessage({ type: "close" });
    Atomics.wait(this.closedFlag, 0, 0, 10_000);
    this.worker.terminate();
  }
}

/**
 * Worker thread: checkpoints the data dir's WAL into the database on its own connection, so the
 * fsyncs and page copies of a checkpoint never block the event loop. Told "dirty" after commits;
 * checkpoints (PASSIVE: never holds up the writer) once per DELAY_MS at most, and reports the
 * WAL's size so the event loop can let the WAL start over (see checkpointer.ts).
 */
import { Database } from "bun:sqlite";
import { syncPath } from "../runtime/sync-path.ts";

declare const self: Worker;

const DELAY_MS = 100;
/** Kept in step with checkpointer.ts RESET_FRAMES. */
const LONG_WAL_FRAMES = 16_384;
const SHORT_TAIL_FRAMES = 1_000;

const passive = (db: Database) => db.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0] as [number, number, number];

type Message = { type: "open"; file: string; closed: SharedArrayBuffer } | { type: "dirty"; bodies?: string } | { type: "close" };

let db: Database | null = null;
let closed: Int32Array | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
let bodies: string | undefined;

/**
 * The body segment's appends reach the disk before the WAL frames pointing at them do (the
 * checkpoint syncs the WAL), so a power loss leaves rows with their bodies as often as SQLite
 * alone would; a segment replaced meanwhile was synced when it was closed.
 */
function syncBodies(): void {
  if (bodies) syncPath(bodies);
}

function checkpoint(): void {
  timer = null;
  try {
    if (!db) throw new Error("the worker's connection is not open");
    syncBodies();
    let [, frames] = passive(db);
    // A long WAL: pass again while the writer added many frames during the last pass, so that
    // what the event loop has left to copy when it lets the WAL start over is small.
    for (let i = 0; frames >= LONG_WAL_FRAMES && i < 8; i++) {
      const before = frames;
      [, frames] = passive(db);
      if (frames - before < SHORT_TAIL_FRAMES) break;
    }
    self.postMessage({ type: "done", frames });
  } catch (e) {
    self.postMessage({ type: "error", message: (e as Error).message });
  }
}

self.onmessage = (event: MessageEvent<Message>) => {
  const m = event.data;
  if (m.type === "open") {
    closed = new Int32Array(m.closed);
    db = new Database(m.file);
  } else if (m.type === "dirty") {
    bodies = m.bodies;
    timer ??= setTimeout(checkpoint, DELAY_MS);
  } else if (m.type === "close") {
    if (timer) clearTimeout(timer);
    timer = null;
    db?.close();
    db = null;
    if (closed) {
      Atomics.store(closed, 0, 1);
      Atomics.notify(closed, 0);
    }
  }
};

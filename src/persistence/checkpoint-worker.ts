/**
 * Worker thread: checkpoints the data dir's WAL into the database on its own connection, so the
 * fsyncs and page copies of a checkpoint never block the event loop. Told "dirty" after commits;
 * checkpoints once per DELAY_MS at most. When the WAL has grown past RESTART_FRAMES (a steady
 * writer never leaves a gap for the WAL to start over), a RESTART checkpoint briefly holds writers
 * back so the next commit writes from the start of the file again.
 */
import { Database } from "bun:sqlite";

declare const self: Worker;

const DELAY_MS = 100;
const RESTART_FRAMES = 16_384; // 64 MiB of 4 KiB pages

type Message = { type: "open"; file: string; closed: SharedArrayBuffer } | { type: "dirty" } | { type: "close" };

let db: Database | null = null;
let closed: Int32Array | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

function checkpoint(): void {
  timer = null;
  if (!db) return;
  try {
    const [, log] = db.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0] as number[];
    if (log > RESTART_FRAMES) db.query("PRAGMA wal_checkpoint(RESTART)").values();
    self.postMessage({ type: "done" });
  } catch (e) {
    self.postMessage({ type: "error", message: (e as Error).message });
  }
}

self.onmessage = (event: MessageEvent<Message>) => {
  const m = event.data;
  if (m.type === "open") {
    closed = new Int32Array(m.closed);
    db = new Database(m.file);
    // A RESTART waits for the writer's transaction to end; the writer waits (busy_timeout) for it.
    db.run("PRAGMA busy_timeout = 10000");
  } else if (m.type === "dirty") {
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

/**
 * What the durable store does when its disk fails it. A write SQLite cannot make (SQLITE_FULL: the
 * file system is full; SQLITE_IOERR / READONLY / CANTOPEN / CORRUPT: the disk or the directory
 * failed) rolls its transaction back and the request is answered RESOURCE_EXHAUSTED (full) or
 * UNAVAILABLE (the rest) — what clients retry — never INTERNAL. From then on the store is
 * faulted: later operations are refused before they change anything in memory, except one real
 * attempt at most every PROBE_MS, so service resumes by itself once space returns. A data dir
 * removed or replaced under the running server (the database file gone or another file at its
 * path) would take every later commit into an unlinked file, and a database file cut short under
 * it (truncated by something else: SQLite never shrinks it, since it runs without auto-vacuum)
 * has lost pages that later commits would build on: either is noticed before the next operation
 * and every write is refused from then on.
 */
import { statSync } from "node:fs";
import { PubSubError } from "../core/errors.ts";
import { log } from "../runtime/log.ts";

const DAMAGED = "The data dir is damaged: start the emulator on a copy made before, or on a fresh one.";

/** How often a faulted store lets one operation try the disk again. */
const PROBE_MS = 1000;

interface Fault {
  error: PubSubError;
  /** Whether a successful write clears it (a full or failing disk), or only a restart (a vanished dir). */
  recoverable: boolean;
  since: number;
  refused: number;
}

/**
 * An SQLite error code (SQLITE_FULL, SQLITE_IOERR_WRITE…) or a system one from a body segment's
 * write (ENOSPC, EIO…) that means the disk failed us, or null.
 */
function diskCode(e: unknown): string | null {
  const code = String((e as { code?: unknown })?.code ?? "");
  return /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB)|^E(NOSPC|DQUOT|IO|ROFS|ACCES|PERM|NOENT|BADF|NOTDIR|FBIG)$/.test(code) ? code : null;
}

const isFull = (code: string) => code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT";

export class DiskFaults {
  private fault: Fault | null = null;
  private lastProbe = -Infinity;
  private readonly ino: number;
  /** The largest size the database file was seen at: it only grows (checkpoints) while we run. */
  private size: number;

  constructor(
    private readonly dir: string,
    private readonly file: string,
    /** Why another file the store writes (a body segment) can no longer be trusted, or null. */
    private readonly damage: () => string | null = () => null,
    private readonly now: () => number = () => performance.now(),
  ) {
    const st = statSync(file);
    this.ino = st.ino;
    this.size = st.size;
  }

  /** For /metrics and tests: the fault in force, if any. */
  get current(): { code: string; message: string; refused: number } | null {
    const f = this.fault;
    return f && { code: f.error.code, message: f.error.message, refused: f.refused };
  }

  /**
   * Before an operation changes anything: throws the fault's error while faulted (a probe is let
   * through), and checks the database file is still the one opened (≈ 1 µs), so no commit into an
   * unlinked file is ever answered.
   */
  gate(): void {
    if (this.fault?.recoverable !== false) this.checkFile();
    const f = this.fault;
    if (!f) return;
    const now = this.now();
    if (f.recoverable && now - this.lastProbe >= PROBE_MS) {
      this.lastProbe = now;
      return;
    }
    f.refused++;
    throw f.error;
  }

  /** Whether writes are being refused (a write that need not succeed, an attempt count, is skipped). */
  get faulted(): boolean {
    return this.fault !== null;
  }

  /** A commit went through: a fault clears. */
  committed(): void {
    const f = this.fault;
    if (f?.recoverable) {
      log.warn(`the data dir ${this.dir} takes writes again after ${((this.now() - f.since) / 1000).toFixed(1)} s; ${f.refused} operations were refused meanwhile`);
      this.fault = null;
    }
  }

  private checkFile(): void {
    let st: { ino: number; size: number } | null = null;
    try {
      st = statSync(this.file);
    } catch {}
    if (!st || st.ino !== this.ino) return this.vanished(`database ${this.file}`, !st ? "is gone" : "was replaced by another file", "Restart the emulator to use the data dir again.");
    if (st.size < this.size) {
      return this.vanished(`database ${this.file}`, `was cut short (${st.size} bytes, ${this.size} before)`, DAMAGED);
    }
    this.size = st.size;
    const damage = this.damage();
    if (damage) this.vanished("message body file", damage, DAMAGED);
  }

  /**
   * A write failed: a disk error becomes the fault in force and its PubSubError is returned (to be
   * thrown); anything else is returned as it was.
   */
  failed(e: unknown): unknown {
    if (e instanceof PubSubError) return e;
    const code = diskCode(e);
    if (!code) return e;
    const cause = `${code}: ${(e as Error).message}`;
    const error =
      isFull(code)
        ? new PubSubError("RESOURCE_EXHAUSTED", `The emulator's data dir ${this.dir} is full (${cause}); nothing of this request was stored. Free space on its file system: the emulator takes writes again by itself.`)
        : new PubSubError("UNAVAILABLE", `The emulator cannot write its data dir ${this.dir} (${cause}); nothing of this request was stored. It tries again every ${PROBE_MS / 1000} s; check the disk and the directory.`);
    if (!this.fault) log.error(`data dir ${this.dir}: a write failed (${cause}); operations that write are refused with ${error.code} until one succeeds (tried again every ${PROBE_MS / 1000} s). Nothing acknowledged before is lost.`);
    if (this.fault?.recoverable !== false) this.fault = { error, recoverable: true, since: this.fault?.since ?? this.now(), refused: this.fault?.refused ?? 0 };
    return error;
  }

  private vanished(what: string, how: string, advice: string): void {
    const msg = `The emulator's ${what} ${how} while it ran (the data dir was removed, replaced or truncated by something else); nothing more can be stored, so writes are refused. Messages acknowledged before are still in the emulator's memory but will not survive a restart.`;
    log.error(`${msg} ${advice}`);
    this.fault = { error: new PubSubError("UNAVAILABLE", msg), recoverable: false, since: this.now(), refused: 0 };
  }
}

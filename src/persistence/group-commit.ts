/**
 * Group commit: the writes of many operations go into one SQLite transaction. Each operation is a
 * savepoint inside it, so one that throws is undone alone. Nothing is answered from a group before
 * it commits: whoever answers waits for `durable()` (the RPC table's when-durable middleware, an
 * exactly-once confirmation, the causal wake, the import ledger). The first such wait has the group
 * committed at the end of the event-loop turn it came in (setImmediate: what arrived in the same
 * turn, as under load, shares the commit, and no timer wakes the process for it), or `windowMs`
 * later when given. Writes nobody waits for (a delivery's attempt count, a StreamingPull ack, which
 * no answer confirms, a retention trim) do not ask for a commit: they join the next answered
 * write's group, committed at the latest IDLE_MS after the group's first write. So a kill -9 loses
 * only writes nobody was told about. A commit costs its WAL frames and system calls whatever it
 * carries, and on a busy host each wake of an idle process costs about as much again; at moderate
 * rates every publish, delivery and ack used to be a commit of its own.
 */
import type { Database } from "bun:sqlite";
import type { DiskFaults } from "./disk-faults.ts";
import type { Statements } from "./statements.ts";

/** `windowMs` for a commit before each operation returns (no grouping). */
export const COMMIT_EACH = -1;
/** The latest a group of writes nobody waits for is committed. */
export const IDLE_MS = 20;

interface Group {
  /** Cancels the pending commit (a timer or an immediate). */
  cancel: () => void;
  /** Someone waits for it: it commits at the end of the turn (or the window). */
  awaited: boolean;
  /** Made on the first durable() call only. */
  done: Promise<void> | null;
  resolve: () => void;
  reject: (e: unknown) => void;
}

const noop = () => {};

export class GroupCommit {
  private group: Group | null = null;
  private depth = 0;

  /**
   * `windowMs`: 0 commits an awaited group at the end of the turn, more that many ms after its
   * first wait (tests, experiments), COMMIT_EACH each operation before it returns. `committed`
   * runs after each commit (the checkpointer's cue).
   */
  constructor(
    private readonly db: Database,
    private readonly q: () => Statements,
    private readonly faults: DiskFaults,
    private readonly windowMs: number,
    private readonly committed: () => void,
  ) {}

  /** Runs `fn` as one operation of the open group (opening one: refused first while the disk is faulted). */
  run<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    if (!this.group) this.open();
    const q = this.q();
    this.depth++;
    let out: T;
    try {
      q.savepoint.run();
      out = fn();
      q.release.run();
    } catch (e) {
      const err = this.faults.failed(e);
      try {
        if (this.db.inTransaction) {
          q.rollbackTo.run();
          q.release.run();
        }
      } catch {}
      // SQLite rolls the whole transaction back on some errors (a full disk, I/O): the group is lost.
      if (!this.db.inTransaction) this.fail(err);
      throw err;
    } finally {
      this.depth--;
    }
    if (this.windowMs === COMMIT_EACH) {
      const err = this.commit();
      if (err) throw err;
    }
    return out;
  }

  /** Resolves when what was written so far is committed; null when nothing is pending. */
  durable(): Promise<void> | null {
    const g = this.group;
    if (!g) return null;
    if (!g.awaited) {
      g.awaited = true;
      g.cancel();
      g.cancel = this.schedule(this.windowMs);
    }
    if (!g.done) {
      g.done = new Promise<void>((resolve, reject) => {
        g.resolve = resolve;
        g.reject = reject;
      });
      // A group whose waiters all went away must not become an unhandled rejection.
      g.done.catch(noop);
    }
    return g.done;
  }

  /** Commits the open group now (a clean stop, the start's first writes). Returns its error, if any. */
  flush(): unknown {
    return this.commit();
  }

  private open(): void {
    this.faults.gate();
    try {
      this.q().begin.run();
    } catch (e) {
      throw this.faults.failed(e);
    }
    const cancel = this.windowMs === COMMIT_EACH ? noop : this.schedule(Math.max(this.windowMs, IDLE_MS));
    this.group = { cancel, awaited: false, done: null, resolve: noop, reject: noop };
  }

  /** A commit `ms` from now, or at the end of this turn for 0; returns its cancel. */
  private schedule(ms: number): () => void {
    if (ms === 0) {
      const immediate = setImmediate(this.commitLater);
      return () => clearImmediate(immediate);
    }
    const timer = setTimeout(this.commitLater, ms);
    return () => clearTimeout(timer);
  }

  private commitLater = (): void => void this.commit();

  private commit(): unknown {
    const g = this.group;
    if (!g) return null;
    this.group = null;
    g.cancel();
    try {
      this.faults.beforeCommit();
      this.q().commit.run();
    } catch (e) {
      try {
        if (this.db.inTransaction) this.q().rollback.run();
      } catch {}
      const err = this.faults.failed(e);
      g.reject(err);
      return err;
    }
    this.faults.committed();
    this.committed();
    g.resolve();
    return null;
  }

  /** The transaction is gone (SQLite rolled it back): its waiters learn why. */
  private fail(err: unknown): void {
    const g = this.group;
    if (!g) return;
    this.group = null;
    g.cancel();
    g.reject(err);
  }
}

/**
 * Message bodies beside the database, in `DIR/pubsub-emulator.body.NNNNNNNNNN`: each message's
 * data is appended once to the current segment file and its SQLite row keeps only where (segment,
 * offset). A body in its row
 * cost its 4 KiB page in the WAL twice (insert, then delete) plus the checkpoint's copies, ≈ 2.6 µs
 * of the store's 7.5 per message in process (bench/store-micro.ts); an append costs a copy.
 *
 * A record is [u32 length][u32 CRC-32 of the data][data], little-endian. The appends of one
 * transaction are written in one write before it commits, so a committed row's body is in the OS
 * page cache as its row is (the kill -9 promise is unchanged); a record whose row never committed
 * is garbage nothing points at. A segment is removed once no committed row points into it; each run
 * starts a new segment, so no append ever follows a torn tail.
 */
import { closeSync, fstatSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * A segment is closed for appends once it reaches this size. A message held long keeps its whole
 * segment on disk (nothing is compacted), so this bounds what one straggler costs.
 */
export const SEGMENT_BYTES = 16 * 1024 * 1024;
const HEADER = 8;
/**
 * Staged bytes past which an append writes what is staged first: a transaction that stores much
 * (a seek bringing back a large backlog) holds at most this much copied, not all of its bodies.
 */
const STAGE_BYTES = 8 * 1024 * 1024;
const NAME = /^pubsub-emulator\.body\.(\d{10})$/;
const fileName = (seg: number) => `pubsub-emulator.body.${String(seg).padStart(10, "0")}`;

export class Bodies {
  private fd = -1;
  /** The segment appends go to, and its file. */
  seg = 0;
  current = "";
  /** Bytes of the current segment written (and so addressable). */
  private size = 0;
  private pending = Buffer.allocUnsafe(1 << 16);
  private pendingLen = 0;
  /** Committed rows pointing into each segment. */
  private live = new Map<number, number>();
  /** The open transaction's appends (all to `seg`) and releases per segment: applied at its commit. */
  private appended = 0;
  private released = new Map<number, number>();

  /** Touches nothing on disk until `start`, so a data dir refused while loading is left as it was. */
  constructor(
    readonly dir: string,
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {}

  /** The segments on disk, oldest first. */
  private segments(): number[] {
    const out: number[] = [];
    for (const f of readdirSync(this.dir)) {
      const m = NAME.exec(f);
      if (m) out.push(Number(m[1]));
    }
    return out.sort((a, b) => a - b);
  }

  /**
   * Reads the bodies of one segment: `at` offsets in, data (copied out) or null for each record
   * that is missing, cut short or fails its checksum.
   */
  readSegment(seg: number, offsets: readonly number[]): (Uint8Array | null)[] {
    let file: Buffer;
    try {
      file = readFileSync(join(this.dir, fileName(seg)));
    } catch {
      return offsets.map(() => null);
    }
    return offsets.map((at) => {
      if (at + HEADER > file.length) return null;
      const len = file.readUInt32LE(at);
      const end = at + HEADER + len;
      if (end > file.length) return null;
      const data = file.subarray(at + HEADER, end);
      return (Bun.hash.crc32(data) >>> 0) === file.readUInt32LE(at + 4) ? new Uint8Array(data) : null;
    });
  }

  /** After loading: `live` rows per segment; segments nothing points into are removed, and a new one is started. */
  start(live: Map<number, number>): void {
    const segs = this.segments();
    for (const s of segs) if (!live.get(s)) rmSync(join(this.dir, fileName(s)), { force: true });
    this.live = new Map([...live].filter(([, n]) => n > 0));
    this.seg = (segs.at(-1) ?? 0) + 1;
    this.open();
  }

  private open(): void {
    const file = join(this.dir, fileName(this.seg));
    this.fd = openSync(file, "a");
    this.current = file;
    this.size = 0;
  }

  /** Stages `data` for the open transaction's write; returns its offset in segment `seg`. */
  append(data: Uint8Array): number {
    if (this.pendingLen > 0 && this.pendingLen + HEADER + data.length > STAGE_BYTES) this.write();
    const need = this.pendingLen + HEADER + data.length;
    if (need > this.pending.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.pending.length * 2));
      this.pending.copy(grown, 0, 0, this.pendingLen);
      this.pending = grown;
    }
    const p = this.pending;
    const at = this.size + this.pendingLen;
    p.writeUInt32LE(data.length, this.pendingLen);
    p.writeUInt32LE(Bun.hash.crc32(data) >>> 0, this.pendingLen + 4);
    p.set(data, this.pendingLen + HEADER);
    this.pendingLen = need;
    this.appended++;
    return at;
  }

  /** A row pointing into `seg` was deleted in the open transaction. */
  release(seg: number): void {
    this.released.set(seg, (this.released.get(seg) ?? 0) + 1);
  }

  /**
   * Before the transaction commits: its appends are written (one write, or one per STAGE_BYTES),
   * or it throws (errno code). Written bytes whose rows then roll back are garbage nothing points at.
   */
  write(): void {
    if (this.pendingLen === 0) return;
    try {
      let done = 0;
      while (done < this.pendingLen) done += writeSync(this.fd, this.pending, done, this.pendingLen - done);
      this.size += this.pendingLen;
    } catch (e) {
      // What reached the file is garbage no row points at; appends go on after it.
      try {
        this.size = fstatSync(this.fd).size;
      } catch {}
      throw e;
    } finally {
      this.pendingLen = 0;
      if (this.pending.length > 1 << 20) this.pending = Buffer.allocUnsafe(1 << 16);
    }
  }

  /**
   * The transaction committed: segments nothing points into any more are removed; a full one is
   * closed. Nothing here may throw (the commit stands): a file that cannot be removed now is
   * removed at the next start, and appends stay on a full segment while a new one cannot be opened.
   */
  committed(): void {
    const live = this.live;
    if (this.appended > 0) live.set(this.seg, (live.get(this.seg) ?? 0) + this.appended);
    this.appended = 0;
    for (const [s, n] of this.released) {
      const left = (live.get(s) ?? 0) - n;
      if (left > 0 || s === this.seg) live.set(s, left);
      else {
        live.delete(s);
        remove(join(this.dir, fileName(s)));
      }
    }
    this.released.clear();
    if (this.size >= this.segmentBytes) this.roll();
  }

  private roll(): void {
    const [fd, file, seg] = [this.fd, this.current, this.seg];
    try {
      this.seg++;
      this.open();
    } catch {
      [this.fd, this.current, this.seg] = [fd, file, seg];
      return;
    }
    // The checkpoint worker syncs the current segment only (checkpoint-worker.ts).
    try {
      fsyncSync(fd);
      closeSync(fd);
    } catch {}
    if (!this.live.get(seg)) remove(file);
  }

  /** The transaction rolled back: its appends and releases are dropped. */
  rolledBack(): void {
    this.pendingLen = 0;
    this.appended = 0;
    this.released.clear();
  }

  /** Why the current segment can no longer be trusted (removed or cut short under us), or null. */
  damage(): string | null {
    if (this.fd < 0) return null;
    let st: { size: number; nlink: number };
    try {
      st = fstatSync(this.fd);
    } catch {
      return `${this.current} cannot be read`;
    }
    if (st.nlink === 0) return `${this.current} is gone`;
    if (st.size < this.size) return `${this.current} was cut short (${st.size} bytes, ${this.size} before)`;
    return null;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

function remove(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {}
}

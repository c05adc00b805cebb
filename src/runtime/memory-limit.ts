/**
 * The limits the process lives under, and the default --max-memory they give: a share of the
 * container's memory limit (cgroup v2 or v1), of the room left under an address-space or data
 * limit (RLIMIT_AS, RLIMIT_DATA: `ulimit -v` / `ulimit -d`), else of the machine's physical memory;
 * and the gauges the budget samples to refuse work before the kernel or the allocator ends the process.
 */
import { readFileSync } from "node:fs";
import { totalmem } from "node:os";
import type { MemoryGauge } from "../core/memory-budget.ts";

/** Of a container's limit: the rest is the runtime's own and the kernel's (page cache, sockets). */
const CGROUP_SHARE = 0.75;
/** Of a machine's memory, which others share. */
const PHYSICAL_SHARE = 0.5;
/**
 * Of the room left under RLIMIT_AS / RLIMIT_DATA at start: the runtime maps more than it touches
 * (heap blocks, thread stacks, collector work space), so virtual memory grows faster than resident.
 */
const RLIMIT_SHARE = 0.75;
/**
 * Virtual memory kept free under RLIMIT_AS / RLIMIT_DATA: past this the runtime's next mapping may
 * fail, and a failed mapping kills a Bun process (SIGSEGV/SIGTRAP/abort) instead of raising an
 * error. A tenth of the limit, but never more than a quarter of the room left at start: the
 * runtime reserves address space greedily at start (its allocator's 1 GiB arena, the JIT's region,
 * each only if it fits), so under some limits it leaves little room — yet keeps allocating inside
 * those reservations — and a reserve larger than that room refused every publish (issue 28). At
 * least MIN_RESERVE: the mappings that failed in the calibration (docs/memory-budget.md) came 10–16 MiB
 * below the limit.
 */
const RLIMIT_RESERVE = 0.1;
const MIN_RESERVE = 24 * 2 ** 20;
/** Less room than this under RLIMIT_AS / RLIMIT_DATA at start: the emulator refuses to start (capRefusal). */
export const MIN_ROOM = 48 * 2 ** 20;
const PAGE = 4096;

export function defaultMaxMemory(): number {
  const shares: number[] = [];
  const cg = cgroupLimit();
  if (cg !== null) shares.push(cg * CGROUP_SHARE);
  // The room is what is left beside the runtime already resident; the budget is on the whole process.
  for (const r of rlimits()) shares.push(processRss() + Math.max(0, r.limit - r.used()) * RLIMIT_SHARE);
  if (shares.length === 0) shares.push(totalmem() * PHYSICAL_SHARE);
  return Math.floor(Math.min(...shares));
}

/** The smallest memory limit of this process's cgroup (v2 memory.max, v1 limit_in_bytes), or null. */
export function cgroupLimit(): number | null {
  const candidates = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"];
  for (const line of read("/proc/self/cgroup")?.split("\n") ?? []) {
    const [, controllers, path] = line.split(":", 3);
    if (!path || path === "/") continue;
    if (controllers === "") candidates.push(`/sys/fs/cgroup${path}/memory.max`);
    else if (controllers.split(",").includes("memory")) candidates.push(`/sys/fs/cgroup/memory${path}/memory.limit_in_bytes`);
  }
  let min: number | null = null;
  for (const file of candidates) {
    const n = Number(read(file)?.trim());
    // "max" (v2) and ~2^63 (v1) mean no limit.
    if (Number.isFinite(n) && n > 0 && n < 2 ** 60) min = min === null ? n : Math.min(min, n);
  }
  return min;
}

/** RLIMIT_AS and RLIMIT_DATA (soft limits, bytes) from a /proc/<pid>/limits text; null = unlimited. */
export function parseRlimits(text: string): { addressSpace: number | null; data: number | null } {
  const soft = (label: string) => {
    const line = text.split("\n").find((l) => l.startsWith(label));
    const n = Number(line?.slice(label.length).trim().split(/\s+/)[0]);
    return Number.isFinite(n) && n > 0 ? n : null;
  };
  return { addressSpace: soft("Max address space"), data: soft("Max data size") };
}

/** An RLIMIT_AS or RLIMIT_DATA in force: its soft limit and what the process uses under it. */
export interface Rlimit {
  /** What is measured against it, for messages ("address space"). */
  what: string;
  /** "RLIMIT_AS (ulimit -v) of 1024 MiB". */
  cap: string;
  /** The shell's word for it: "ulimit -v". */
  ulimit: string;
  limit: number;
  used: () => number;
}

/** The RLIMIT_AS and RLIMIT_DATA in force (none where /proc is absent: macOS, Windows, or hidden). */
export function rlimits(limits = parseRlimits(read("/proc/self/limits") ?? "")): Rlimit[] {
  const out: Rlimit[] = [];
  // /proc/self/statm: size resident shared text lib data dt, in pages; 0 where it cannot be read.
  const statm = (field: number) => () => Number(read("/proc/self/statm")?.split(" ")[field] ?? 0) * PAGE;
  if (limits.addressSpace !== null) {
    out.push({ what: "address space", ulimit: "ulimit -v", cap: `RLIMIT_AS (ulimit -v) of ${mb(limits.addressSpace)}`, limit: limits.addressSpace, used: statm(0) });
  }
  if (limits.data !== null) {
    out.push({ what: "data segment", ulimit: "ulimit -d", cap: `RLIMIT_DATA (ulimit -d) of ${mb(limits.data)}`, limit: limits.data, used: statm(5) });
  }
  return out;
}

/**
 * What the budget samples beside resident memory: virtual size against RLIMIT_AS and the data
 * segment against RLIMIT_DATA, each limit less its reserve (taken from the room left now, at
 * start); none when unlimited.
 */
export function rlimitGauges(limits?: ReturnType<typeof parseRlimits>): MemoryGauge[] {
  return rlimits(limits).map((r) => {
    const room = Math.max(0, r.limit - r.used());
    const reserve = Math.max(MIN_RESERVE, Math.min(r.limit * RLIMIT_RESERVE, room / 4));
    // Nothing at all only within half the least reserve of the limit itself, where the next mapping
    // may fail: a tenth-of-the-limit reserve put that line hundreds of MiB lower, and virtual memory
    // does not come back after a drain, so an emptied emulator stayed refusing everything.
    return { what: r.what, cap: r.cap, limit: Math.floor(r.limit - reserve), hard: Math.floor(r.limit - MIN_RESERVE / 2), used: r.used };
  });
}

/**
 * Why the emulator cannot run under the limits in force, or null: under some RLIMIT_AS values the
 * runtime's start-up reservations take nearly all of it (2303 MiB of 2304), and the first
 * allocation the reservations cannot serve kills the process — so it refuses to start, naming
 * the cap and what to do, rather than start and die on the first request.
 */
export function capRefusal(limits?: ReturnType<typeof parseRlimits>): string | null {
  for (const r of rlimits(limits)) {
    const used = r.used();
    if (r.limit - used >= MIN_ROOM) continue;
    return `the ${r.cap} leaves ${mb(Math.max(0, r.limit - used))} after the runtime's start-up mappings (${mb(used)} of ${r.what}), less than the ${mb(MIN_ROOM)} the emulator needs to hold messages. Raise or remove that limit (${r.ulimit}), and cap the emulator's memory with --max-memory instead`;
  }
  return null;
}

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Resident memory of this process, cheap enough to sample every 100 ms. */
export const processRss = () => process.memoryUsage.rss();

/** A full, synchronous collection, so memory freed by acks is returned before the next sample. */
export const collectGarbage = () => Bun.gc(true);

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
 * fail, and a failed mapping kills a Bun process (SIGSEGV/SIGTRAP) instead of raising an error.
 */
const RLIMIT_RESERVE = 0.1;
const PAGE = 4096;

export function defaultMaxMemory(): number {
  const shares: number[] = [];
  const cg = cgroupLimit();
  if (cg !== null) shares.push(cg * CGROUP_SHARE);
  for (const g of rlimitGauges()) shares.push(Math.max(0, g.limit - g.used()) * RLIMIT_SHARE);
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

/**
 * What the budget samples beside resident memory: virtual size against RLIMIT_AS and the data
 * segment against RLIMIT_DATA, each limit less its reserve; none when unlimited.
 */
export function rlimitGauges(limits = parseRlimits(read("/proc/self/limits") ?? "")): MemoryGauge[] {
  const gauges: MemoryGauge[] = [];
  // /proc/self/statm: size resident shared text lib data dt, in pages.
  const statm = (field: number) => () => Number(read("/proc/self/statm")?.split(" ")[field] ?? 0) * PAGE;
  if (limits.addressSpace !== null) {
    gauges.push({ what: "address space", limit: Math.floor(limits.addressSpace * (1 - RLIMIT_RESERVE)), cap: `RLIMIT_AS (ulimit -v) of ${mb(limits.addressSpace)}`, used: statm(0) });
  }
  if (limits.data !== null) {
    gauges.push({ what: "data segment", limit: Math.floor(limits.data * (1 - RLIMIT_RESERVE)), cap: `RLIMIT_DATA (ulimit -d) of ${mb(limits.data)}`, used: statm(5) });
  }
  return gauges;
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

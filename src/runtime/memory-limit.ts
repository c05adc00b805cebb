/**
 * The default --max-memory: a share of the container's memory limit (cgroup v2 or v1) when there
 * is one, else of the machine's physical memory; and the process probes the budget samples.
 */
import { readFileSync } from "node:fs";
import { totalmem } from "node:os";

/** Of a container's limit: the rest is the runtime's own and the kernel's (page cache, sockets). */
const CGROUP_SHARE = 0.75;
/** Of a machine's memory, which others share. */
const PHYSICAL_SHARE = 0.5;

export function defaultMaxMemory(): number {
  const limit = cgroupLimit();
  return Math.floor(limit !== null ? limit * CGROUP_SHARE : totalmem() * PHYSICAL_SHARE);
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

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Resident memory of this process, cheap enough to sample every 100 ms. */
export const processRss = () => process.memoryUsage.rss();

/** A full, synchronous collection, so memory freed by acks is returned before the next sample. */
export const collectGarbage = () => Bun.gc(true);

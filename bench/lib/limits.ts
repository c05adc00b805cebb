// Resource limits for bench/sizing.ts: CPU pinning (taskset), CPU quota and memory caps.
//
// Memory cap methods, in the order they are tried (the first that works here is used):
//   systemd   `systemd-run --scope -p MemoryMax=… -p MemorySwapMax=0 --` (needs systemd as PID 1)
//   cgroup    a child cgroup made by hand (v1: memory.limit_in_bytes, v2: memory.max), the
//             server exec'd inside it through bench/lib/cgexec.sh (needs root or delegation)
//   prlimit   `prlimit --as=…`: caps virtual address space, not memory: Bun reserves far more
//             address space than it touches (it cannot even start under 256 MB), so this is
//             a last resort and is reported as such
//   none      no cap possible: the server runs with `--smol` and the table reports RSS vs cap
// All three real caps behave like Cloud Run's limit: past it the kernel OOM-kills the server.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./server.ts";

export const CGEXEC = join(ROOT, "bench/lib/cgexec.sh");

export function parseBytes(s: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([KMG]i?B?|)$/i.exec(s.trim());
  if (!m) return null;
  const k = m[2]!.toUpperCase()[0];
  return Math.round(Number(m[1]) * (k === "G" ? 2 ** 30 : k === "M" ? 2 ** 20 : k === "K" ? 2 ** 10 : 1));
}

function run(cmd: string[]): boolean {
  try { return Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore", timeout: 10_000 }).exitCode === 0; } catch { return false; }
}

/** The cgroup directory of this process for a v1 controller, or the v2 one (controller ""). */
function ownCgroup(controller: string): string | null {
  try {
    for (const line of readFileSync("/proc/self/cgroup", "utf8").trim().split("\n")) {
      const [, ctrls, path] = line.split(":", 3) as [string, string, string];
      const dir = controller === "" ? (ctrls === "" ? join("/sys/fs/cgroup", path) : null)
        : ctrls.split(",").includes(controller) ? join("/sys/fs/cgroup", controller, path) : null;
      if (dir && existsSync(dir)) return dir;
    }
  } catch {}
  return null;
}

export interface Cgroup { dir: string; version: 1 | 2 }

function v2Usable(parent: string, controller: string) {
  try { return readFileSync(join(parent, "cgroup.subtree_control"), "utf8").split(/\s+/).includes(controller); } catch { return false; }
}

/** Makes a child cgroup for `controller` ("memory" or "cpu"); null if this host does not let us. */
export function makeCgroup(controller: "memory" | "cpu", name: string): Cgroup | null {
  const v1 = ownCgroup(controller);
  if (v1) {
    const dir = join(v1, name);
    try { mkdirSync(dir); return { dir, version: 1 }; } catch {}
  }
  const v2 = ownCgroup("");
  if (v2 && v2Usable(v2, controller)) {
    const dir = join(v2, name);
    try { mkdirSync(dir); if (existsSync(join(dir, controller === "memory" ? "memory.max" : "cpu.max"))) return { dir, version: 2 }; rmdirSync(dir); } catch {}
  }
  return null;
}

export function removeCgroup(cg: Cgroup) {
  for (let i = 0; i < 20; i++) {
    try { rmdirSync(cg.dir); return; } catch { Bun.sleepSync(250); } // busy until the server has exited
  }
}

export function setMemoryMax(cg: Cgroup, bytes: number) {
  if (cg.version === 1) {
    writeFileSync(join(cg.dir, "memory.limit_in_bytes"), String(bytes));
    try { writeFileSync(join(cg.dir, "memory.memsw.limit_in_bytes"), String(bytes)); } catch {} // no swap escape
  } else {
    writeFileSync(join(cg.dir, "memory.max"), String(bytes));
    try { writeFileSync(join(cg.dir, "memory.swap.max"), "0"); } catch {}
  }
}

export function setCpuQuota(cg: Cgroup, cpus: number) {
  const period = 100_000;
  if (cg.version === 1) {
    writeFileSync(join(cg.dir, "cpu.cfs_period_us"), String(period));
    writeFileSync(join(cg.dir, "cpu.cfs_quota_us"), String(Math.round(cpus * period)));
  } else writeFileSync(join(cg.dir, "cpu.max"), `${Math.round(cpus * period)} ${period}`);
}

export interface MemoryStats { peakBytes: number | null; failcnt: number | null; oomKills: number | null }

export function memoryStats(cg: Cgroup): MemoryStats {
  const rd = (f: string) => { try { return readFileSync(join(cg.dir, f), "utf8"); } catch { return null; } };
  const kv = (s: string | null, k: string) => { const m = s && new RegExp(`^${k} (\\d+)`, "m").exec(s); return m ? Number(m[1]) : null; };
  if (cg.version === 1) {
    const peak = rd("memory.max_usage_in_bytes"), fail = rd("memory.failcnt");
    return { peakBytes: peak ? Number(peak) : null, failcnt: fail ? Number(fail) : null, oomKills: kv(rd("memory.oom_control"), "oom_kill") };
  }
  const peak = rd("memory.peak");
  return { peakBytes: peak ? Number(peak) : null, failcnt: kv(rd("memory.events"), "max"), oomKills: kv(rd("memory.events"), "oom_kill") };
}

export type MemMethod = "systemd" | "cgroup" | "prlimit" | "none";

/** Finds the first memory-cap method that works on this host (each probe is bounded). */
export function detectMemMethod(): MemMethod {
  if (Bun.which("systemd-run") && run(["systemd-run", "--scope", "-q", "-p", "MemoryMax=64M", "--", "true"])) return "systemd";
  const cg = makeCgroup("memory", `bench-probe-${process.pid}`);
  if (cg) {
    let ok = false;
    try { setMemoryMax(cg, 64 * 2 ** 20); ok = run([CGEXEC, cg.dir, "true"]); } catch {}
    removeCgroup(cg);
    if (ok) return "cgroup";
  }
  if (Bun.which("prlimit") && run(["prlimit", "--as=1073741824", "true"])) return "prlimit";
  return "none";
}

export function cpuList(from: number, count: number) { return count === 1 ? `${from}` : `${from}-${from + count - 1}`; }

/**
 * Small real file systems for disk-fault tests (root only): a tmpfs of a given size (full when
 * written past it, grown back with a remount), read-only bind mounts, and an ext4 file system
 * whose loop device's backing file lives on a smaller tmpfs, so writes past that fail with EIO
 * as a failing disk's do. Every mount is undone by unmountAll (lazily, so a server still
 * holding files cannot keep it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const mounted: string[] = [];
const loops: string[] = [];

function sh(cmd: string[]): string {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe", timeout: 30_000 });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (this test needs root, mount, losetup and e2fsprogs): ${r.stderr.toString().trim()}`);
  return r.stdout.toString().trim();
}

/** A fresh tmpfs of `mib` MiB; returns its mount point. */
export function tmpfs(mib: number): string {
  const dir = mkdtempSync(join(tmpdir(), "pubsub-fs-"));
  sh(["mount", "-t", "tmpfs", "-o", `size=${mib}m,mode=755`, "tmpfs", dir]);
  mounted.push(dir);
  return dir;
}

/** Changes a tmpfs's size in place (space returns, or goes). */
export const resizeTmpfs = (dir: string, mib: number) => sh(["mount", "-o", `remount,size=${mib}m`, dir]);

/** `source` seen read-only at a fresh path. */
export function readOnlyBind(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), "pubsub-ro-"));
  sh(["mount", "--bind", source, dir]);
  mounted.push(dir);
  sh(["mount", "-o", "remount,ro,bind", dir]);
  return dir;
}

/**
 * A `diskMiB` ext4 (mounted `sync`, so a failed write reaches the writer) on a loop device whose
 * backing file may take only `backingMiB`: writes past that fail with EIO. `repair` unmounts it,
 * gives the backing file room, runs e2fsck and mounts it again (what an operator would do).
 */
export function failingDisk(backingMiB: number, diskMiB: number): { dir: string; repair(): void } {
  const back = tmpfs(backingMiB);
  const img = join(back, "disk.img");
  sh(["truncate", "-s", `${diskMiB}M`, img]);
  sh(["mkfs.ext4", "-q", "-F", img]);
  const dir = mkdtempSync(join(tmpdir(), "pubsub-ext4-"));
  const attach = (opts: string) => {
    const loop = sh(["losetup", "-f", "--show", img]);
    loops.push(loop);
    sh(["mount", "-o", opts, loop, dir]);
    mounted.push(dir);
    return loop;
  };
  let loop = attach("sync,errors=continue");
  return {
    dir,
    repair() {
      sh(["umount", "-l", dir]);
      mounted.splice(mounted.indexOf(dir), 1);
      sh(["losetup", "-d", loop]);
      loops.splice(loops.indexOf(loop), 1);
      resizeTmpfs(back, diskMiB * 2);
      // 0: clean, 1: errors corrected; anything else is a failure.
      const r = Bun.spawnSync(["e2fsck", "-fy", img], { stdout: "pipe", stderr: "pipe", timeout: 30_000 });
      if (r.exitCode! > 1) throw new Error(`e2fsck exited ${r.exitCode}: ${r.stdout}`);
      loop = attach("defaults");
    },
  };
}

export function unmountAll(): void {
  for (const dir of mounted.splice(0).reverse()) {
    Bun.spawnSync(["umount", "-l", dir], { timeout: 10_000 });
    rmSync(dir, { recursive: true, force: true });
  }
  for (const loop of loops.splice(0)) Bun.spawnSync(["losetup", "-d", loop], { timeout: 10_000 });
}

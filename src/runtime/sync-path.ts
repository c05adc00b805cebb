import { closeSync, fsyncSync, openSync } from "node:fs";

/**
 * fsync of a file or directory by path, best effort: some file systems refuse it on a directory,
 * and a file may be gone by now; the caller's promise never rests on it alone.
 */
export function syncPath(path: string): void {
  try {
    const fd = openSync(path, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {}
}

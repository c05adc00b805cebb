/**
 * A worker thread's entry: next to the calling module from source; in the compiled binary, where
 * the build embeds it as another entry point (package.json's build) and the calling code sits in
 * a chunk at the bundle's root, at its path under that root — `/$bunfs/root/` on Linux and macOS,
 * `B:\~BUN\root\` on Windows (whose URL may spell `~` as `%7E`).
 */
import { fileURLToPath } from "node:url";

/** `source`: the entry beside `moduleUrl` (./x-worker.ts); `bundled`: its path in the bundle (./dir/x-worker.js). */
export function workerEntryOf(moduleUrl: string, source: string, bundled: string): string | URL {
  if (!/\$bunfs|~BUN|%7EBUN/i.test(moduleUrl)) return new URL(source, moduleUrl);
  return fileURLToPath(new URL(bundled, moduleUrl), { windows: /^file:\/\/\/[A-Za-z]:/.test(moduleUrl) });
}

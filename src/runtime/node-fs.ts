/**
 * node:fs, node:fs/promises and node:path, each loaded on its first use. Only a server that keeps
 * files needs them (a data dir, an export or import directory, a ledger, a ulimit gauge), and
 * loading them costs every start: ≈ 10 MB of RSS for node:fs/promises (it brings Bun's stream
 * machinery), ≈ 2.5 MB and 1 ms for node:fs, ≈ 1 MB for node:path (bench/JOURNAL.md, issue 30).
 */
type Fs = typeof import("node:fs");
type FsPromises = typeof import("node:fs/promises");
type Path = typeof import("node:path");

let fsModule: Fs | undefined;
let promisesModule: FsPromises | undefined;
let pathModule: Path | undefined;

export const fs = (): Fs => (fsModule ??= require("node:fs") as Fs);
export const fsPromises = (): FsPromises => (promisesModule ??= require("node:fs/promises") as FsPromises);
export const nodePath = (): Path => (pathModule ??= require("node:path") as Path);

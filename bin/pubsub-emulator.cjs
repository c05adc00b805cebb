#!/usr/bin/env node
"use strict";
/**
 * `npx pubsub-emulator [flags]`: runs src/main.ts on the Bun that came with the package, with the
 * same command line and output as the binary; signals are passed on and its exit code passed back.
 */
const { spawn } = require("node:child_process");
const { join } = require("node:path");
const { PACKAGE_ROOT, bunPath, missingBun } = require("../lib/bun.cjs");

const bun = bunPath();
// Its own process group on POSIX: a terminal's Ctrl-C then reaches the emulator once, through us,
// not twice (once from the terminal, once from us or from npm exec), which it would take as "force".
const detached = process.platform !== "win32";
const child = spawn(bun, [join(PACKAGE_ROOT, "src", "main.ts"), ...process.argv.slice(2)], { stdio: "inherit", detached });

// The same signal twice within a second is one Ctrl-C seen by npm exec and by us: passed on once.
const lastSent = new Map();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const signal of SIGNALS) {
  process.on(signal, () => {
    const now = Date.now();
    if (now - (lastSent.get(signal) ?? 0) < 1000) return;
    lastSent.set(signal, now);
    child.kill(signal);
  });
}

child.on("error", (e) => {
  process.stderr.write(`${e.code === "ENOENT" ? missingBun(bun) : `pubsub-emulator: ${e.message}`}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Dies of the same signal, so whoever started us sees what the emulator saw.
    for (const s of SIGNALS) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});

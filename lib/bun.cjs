"use strict";
/**
 * Where the Bun that runs the emulator is: PUBSUB_EMULATOR_BUN when set (a CPU without AVX2
 * needs Bun's baseline build, which npm cannot choose); under Bun itself the running Bun; else
 * the one @oven/bun-* package npm installed for this machine (their os, cpu and libc fields pick
 * it, so no install script is needed); else a `bun` on the PATH.
 */
const { dirname, join } = require("node:path");

/** process.platform + process.arch → Bun's platform packages, glibc first (npm installs only the matching libc's). */
const PACKAGES = new Map([
  ["darwin arm64", ["@oven/bun-darwin-aarch64"]],
  ["darwin x64", ["@oven/bun-darwin-x64"]],
  ["linux arm64", ["@oven/bun-linux-aarch64", "@oven/bun-linux-aarch64-musl"]],
  ["linux x64", ["@oven/bun-linux-x64", "@oven/bun-linux-x64-musl"]],
  ["win32 arm64", ["@oven/bun-windows-aarch64"]],
  ["win32 x64", ["@oven/bun-windows-x64"]],
]);

function bunPath() {
  if (process.env.PUBSUB_EMULATOR_BUN) return process.env.PUBSUB_EMULATOR_BUN;
  if (process.versions.bun) return process.execPath;
  const exe = process.platform === "win32" ? "bun.exe" : "bun";
  for (const name of PACKAGES.get(`${process.platform} ${process.arch}`) ?? []) {
    let manifest;
    try {
      manifest = require.resolve(`${name}/package.json`);
    } catch {
      continue;
    }
    return join(dirname(manifest), "bin", exe);
  }
  return "bun";
}

/** Why spawning `path` failed with ENOENT, in words a user can act on. */
function missingBun(path) {
  const wanted = (PACKAGES.get(`${process.platform} ${process.arch}`) ?? []).join(" or ");
  return path === "bun"
    ? `pubsub-emulator: no Bun found: ${wanted ? `the optional dependency ${wanted} is not installed (was it installed with --omit=optional?)` : `Bun ships no npm package for ${process.platform}-${process.arch}`}, and bun is not on the PATH`
    : `pubsub-emulator: cannot run ${path} (not found)`;
}

/** The package's root: src/ and package.json are beside lib/. */
const PACKAGE_ROOT = join(__dirname, "..");

module.exports = { bunPath, missingBun, PACKAGE_ROOT };

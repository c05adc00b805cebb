"use strict";
/**
 * Where the Bun that runs the emulator is. npm installs the one @oven/bun-* package that matches
 * this machine (their os, cpu and libc fields), so no install script is needed; under Bun itself
 * the running Bun is used; else a `bun` on the PATH.
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
    : `pubsub-emulator: cannot run ${path}`;
}

/** The package's root: src/ and package.json are beside lib/. */
const PACKAGE_ROOT = join(__dirname, "..");

module.exports = { bunPath, missingBun, PACKAGE_ROOT };

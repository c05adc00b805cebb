/** The release's paperwork agrees with itself: licence, package.json, CHANGELOG and --version. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../helpers/server-process.ts";

const ROOT = join(import.meta.dir, "../..");
const read = (f: string) => readFileSync(join(ROOT, f), "utf8");
const pkg = JSON.parse(read("package.json"));

describe("release", () => {
  test("every compiled build names the same entry points (a worker missing from one is a binary that fails at run time)", () => {
    const entries = (cmd: string) => [...cmd.matchAll(/\bsrc\/[\w/-]+\.ts\b/g)].map((m) => m[0]).sort();
    const fromScript = entries(read("scripts/build-release.ts").match(/const entries = \[[^\]]*\]/)![0]);
    expect(fromScript).toContain("src/transforms/udf-worker.ts");
    expect(entries(pkg.scripts.build)).toEqual(fromScript);
    const compiles = read(".ci/image-arm64").split("\n").filter((l) => l.includes("bun build --compile"));
    expect(compiles.length).toBeGreaterThan(0);
    for (const line of compiles) expect(entries(line)).toEqual(fromScript);
  });

  test("Apache-2.0: the standard LICENSE text and package.json's licence field", async () => {
    const license = read("LICENSE");
    expect(license).toContain("Apache License\n                           Version 2.0, January 2004");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
    // The text as the Apache Software Foundation publishes it (its well-known MD5).
    expect(new Bun.CryptoHasher("md5").update(license).digest("hex")).toBe("3b83ef96387f14655fc854ddc3c6bd57");
    expect(pkg.license).toBe("Apache-2.0");
    expect(pkg.private).toBeUndefined();
  });

  test("the newest CHANGELOG entry is package.json's version, with a date and what it supports", () => {
    const versions = [...read("CHANGELOG.md").matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)];
    expect(versions[0]?.[1]).toBe("Unreleased");
    expect(versions[1]?.[1]).toBe(pkg.version);
    expect(versions[1]?.[2]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const entry = read("CHANGELOG.md").split(/^## /m)[2];
    expect(entry).toContain("### Supported");
  });

  test("--version prints package.json's version", async () => {
    const { code, stdout: out } = await runMain(["--version"], { ms: 15_000 });
    expect(code).toBe(0);
    expect(out).toBe(`pubsub-emulator ${pkg.version} (bun ${Bun.version})\n`);
  });

  test("every file package.json points to is in its files list and exists", async () => {
    const targets = [pkg.main, pkg.types, ...Object.values(pkg.bin as Record<string, string>), ...Object.values(pkg.exports["."] as Record<string, string>)];
    for (const t of targets) {
      const rel = String(t).replace(/^\.\//, "");
      expect((pkg.files as string[]).some((f) => rel.startsWith(f.replace(/\*.*$/, "")))).toBe(true);
      expect(await Bun.file(join(ROOT, rel)).exists()).toBe(true);
    }
    expect(pkg.engines.node).toBe(">=20");
  });
});

/**
 * docs/testcontainers.md shows lines of the four Testcontainers tests that .ci/image runs against
 * the image. Each test marks those lines between `docs:NAME {` and `docs:NAME }` comments; every
 * marked region must appear, consecutive and with its relative indentation, in one of the page's
 * code blocks, so the page cannot drift from what CI runs.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const DOC = "docs/testcontainers.md";
const TESTS = [
  "tests/image/testcontainers-java/src/test/java/imagetest/PubSubModuleTest.java",
  "tests/image/testcontainers-go/pubsub_test.go",
  "tests/image/testcontainers-node/pubsub-module.mjs",
  "tests/image/testcontainers-python/test_pubsub_module.py",
];

/** The lines without the leading whitespace they all share. */
function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0]);
  let common = indents[0] ?? "";
  for (const i of indents) while (!i.startsWith(common)) common = common.slice(0, -1);
  return lines.map((l) => l.slice(common.length).trimEnd());
}

/** The marked regions of a test file, by name, dedented. */
function regions(src: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const lines = src.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /(?:\/\/|#) docs:([\w-]+) \{$/.exec(lines[i].trim());
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.trim().endsWith(`docs:${open[1]} }`));
    if (end < 0) throw new Error(`docs:${open[1]} is opened but never closed`);
    found.set(open[1], dedent(lines.slice(i + 1, end)));
    i = end;
  }
  return found;
}

/** Each fenced code block of the page, dedented. */
function codeBlocks(md: string): string[][] {
  return [...md.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((m) => dedent(m[1].replace(/\n$/, "").split("\n")));
}

const containsRun = (block: string[], run: string[]) =>
  block.some((_, i) => run.every((line, k) => block[i + k] === line));

describe(DOC, () => {
  const blocks = codeBlocks(readFileSync(resolve(ROOT, DOC), "utf8"));

  test("has code blocks to check", () => {
    expect(blocks.length).toBeGreaterThan(4);
  });

  for (const file of TESTS) {
    test(`shows the marked lines of ${file}`, () => {
      const marked = regions(readFileSync(resolve(ROOT, file), "utf8"));
      expect(marked.size).toBeGreaterThan(0);
      for (const [name, lines] of marked) {
        expect(lines.length, `docs:${name} is empty`).toBeGreaterThan(0);
        const shown = blocks.some((b) => containsRun(b, lines));
        expect(shown ? "" : `docs:${name} of ${file} is not in ${DOC}:\n${lines.join("\n")}`).toBe("");
      }
    });
  }
});

/**
 * The documentation's relative links and #anchors resolve as they do on GitHub: README.md,
 * ARCHITECTURE.md and every docs/*.md. A link names a file or folder that exists in the repository;
 * an anchor, in the same file or in another .md, matches one of its headings by GitHub's slug rule.
 * And the README stays a front door: at most 300 lines.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const README_MAX_LINES = 300;

/**
 * GitHub's heading anchor: lower case, every character that is not a letter, mark, digit, `_`,
 * `-` or space dropped, spaces turned into `-`; a repeated slug gets `-1`, `-2`, … (as
 * github-slugger, which GitHub's renderer matches).
 */
export function slugs(headings: string[]): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const text of headings) {
    const base = text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

interface Parsed { headings: string[]; targets: string[] }

/** Headings as plain text and link/image targets, from Bun's CommonMark parser (code spans and fences hold no links). */
function parse(markdown: string): Parsed {
  const headings: string[] = [];
  const targets: string[] = [];
  Bun.markdown.render(markdown, {
    heading: (children: string) => { headings.push(children); return ""; },
    link: (children: string, meta: { href: string }) => { targets.push(meta.href); return children; },
    image: (children: string, meta: { src: string }) => { targets.push(meta.src); return children; },
  });
  return { headings, targets };
}

/** Every relative link of `files` (paths under `root`) that does not resolve, as "file: target (why)". */
export function brokenLinks(root: string, files: string[]): string[] {
  const parsed = new Map<string, Parsed>();
  const parsedAt = (abs: string): Parsed => {
    let p = parsed.get(abs);
    if (!p) parsed.set(abs, (p = parse(readFileSync(abs, "utf8"))));
    return p;
  };
  const problems: string[] = [];
  for (const file of files) {
    const abs = join(root, file);
    for (const target of parsedAt(abs).targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …: not ours to check
      const hash = target.indexOf("#");
      const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      const dest = path === "" ? abs : path.startsWith("/") ? join(root, path) : resolve(dirname(abs), path);
      const inside = relative(root, dest);
      if (inside.startsWith("..")) { problems.push(`${file}: ${target} (outside the repository)`); continue; }
      if (!existsSync(dest)) { problems.push(`${file}: ${target} (no such file)`); continue; }
      if (anchor !== null && dest.endsWith(".md") && !slugs(parsedAt(dest).headings).has(anchor)) {
        problems.push(`${file}: ${target} (no heading with that anchor in ${inside || file})`);
      }
    }
  }
  return problems;
}

function documentation(): string[] {
  const docs = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
  return ["README.md", "ARCHITECTURE.md", ...docs.sort()];
}

test("every relative link and #anchor in README.md, ARCHITECTURE.md and docs/*.md resolves", () => {
  const files = documentation();
  expect(files.length).toBeGreaterThan(10);
  expect(brokenLinks(ROOT, files)).toEqual([]);
});

test(`README.md is at most ${README_MAX_LINES} lines`, () => {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
  expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
});

test("the checker follows GitHub's slugs and reports a missing file or anchor", () => {
  expect([...slugs(["Persistence (--data-dir)", "HTTP on the gRPC port: health, metrics", "A_b — c 1.2", "Reset", "Reset"])])
    .toEqual(["persistence---data-dir", "http-on-the-grpc-port-health-metrics", "a_b--c-12", "reset", "reset-1"]);
  const dir = mkdtempSync(join(tmpdir(), "links-"));
  try {
    writeFileSync(join(dir, "a.md"), [
      "# Top", "## Persistence (`--data-dir`)", "## Reset", "## Reset",
      "[ok](#persistence---data-dir) [ok](b.md#deep-part) [ok](#reset-1) [ok](https://example.com/x.md#nope)",
      "[ok](b.md) [ok](./) ![ok](b.md)", "`[not a link](gone.md)`", "```", "[fenced](gone.md)", "```",
      "[bad](gone.md) [bad](#nope) [bad](b.md#top) [bad](../outside.md) [bad](#reset-2)",
    ].join("\n\n"));
    writeFileSync(join(dir, "b.md"), "# Title\n\n## Deep part\n");
    expect(brokenLinks(dir, ["a.md"])).toEqual([
      "a.md: gone.md (no such file)",
      "a.md: #nope (no heading with that anchor in a.md)",
      "a.md: b.md#top (no heading with that anchor in b.md)",
      "a.md: ../outside.md (outside the repository)",
      "a.md: #reset-2 (no heading with that anchor in a.md)",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

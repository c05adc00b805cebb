/**
 * ARCHITECTURE.md names files that exist. Every path it writes is checked against the repository:
 * one from the root (`src/…`, `tests/…`, `bench/…`, `protos/…`, `.ci/…`, …) as written; one from
 * an area of src/ (`core/topic/topics.ts`, `grpc/call/`) under src/; a shorter one (`call/routes.ts`,
 * `hpack.ts`, `store/`) must end some path of the repository, or, inside a tree block, some path
 * under the folder its column-0 line names (where `bench/` writes `lib/runner.ts`, that is bench/lib/).
 * A renamed or deleted file then fails here, not in a
 * reader's hands. And the three parts the document promises keep their headings.
 */
import { expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const DOC = "ARCHITECTURE.md";
const ROOT_FOLDERS = new Set(["src", "tests", "bench", "protos", ".ci", "docs", "container", "scripts", "lib", "bin"]);
/** File kinds a short name is checked for (not .js or .yaml: those are package or upstream names here). */
const CHECKED_EXT = /\.(ts|json|md|sh|cjs|mjs|go|py|java|proto)$/;
/** A path-looking token: not inside a word, a URL path, a scoped package or a `node:` specifier. */
const TOKEN = /(?<![\w@:/.<>*-])\.?[A-Za-z0-9_][\w.-]*(?:\/[\w.-]+)*\/?/g;

/** Every file and folder of the repository, relative, folders with a trailing slash. */
function repoPaths(dir = ROOT, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name === ".git" || (e.name.startsWith(".") && e.name !== ".ci")) return [];
    const rel = prefix + e.name;
    return e.isDirectory() ? [`${rel}/`, ...repoPaths(join(dir, e.name), `${rel}/`)] : [rel];
  });
}

/** The paths `doc` names that `paths` (relative, folders ending in "/") does not hold, as "line N: token". */
export function missingPaths(doc: string, paths: readonly string[]): string[] {
  const all = new Set(paths);
  const areas = new Set(paths.filter((p) => /^src\/[^/]+\/$/.test(p)).map((p) => p.slice(4, -1)));
  const exists = (p: string) => all.has(p) || all.has(`${p}/`);
  const endsSome = (p: string, under: string) =>
    paths.some((f) => f.startsWith(under) && (f === under + p || f.endsWith(`/${p}`)));
  const problems: string[] = [];
  let inBlock = false;
  let folder = "";
  doc.split("\n").forEach((line, i) => {
    if (line.startsWith("```")) {
      inBlock = !inBlock;
      folder = "";
      return;
    }
    if (inBlock && /^\S/.test(line)) {
      const first = /^[\w.-]+(?:\/[\w.-]+)*\/?/.exec(line)?.[0] ?? "";
      folder = ROOT_FOLDERS.has(first.split("/")[0]) && first.includes("/") ? (first.endsWith("/") ? first : `${dirname(first)}/`) : "";
    }
    for (const m of line.matchAll(TOKEN)) {
      const token = m[0].replace(/\.+$/, "");
      const head = token.split("/")[0];
      const slash = token.includes("/");
      let ok = true;
      if (slash && ROOT_FOLDERS.has(head)) ok = exists(token.replace(/\/$/, "")) || (inBlock && exists(folder + token.replace(/\/$/, "")));
      else if (slash && areas.has(head)) ok = exists(`src/${token.replace(/\/$/, "")}`);
      else if (CHECKED_EXT.test(token) || token.endsWith("/")) ok = endsSome(token, inBlock ? folder : "");
      if (!ok) problems.push(`line ${i + 1}: ${token}`);
    }
  });
  return problems;
}

test(`every path ${DOC} names exists`, () => {
  const paths = repoPaths();
  expect(paths).toContain("src/core/broker.ts");
  expect(missingPaths(readFileSync(join(ROOT, DOC), "utf8"), paths)).toEqual([]);
});

test(`${DOC} keeps its three parts: what lives where, one message's path, which file to open`, () => {
  const headings = readFileSync(join(ROOT, DOC), "utf8").split("\n").filter((l) => l.startsWith("#")).map((l) => l.toLowerCase());
  for (const part of ["what lives where", "one message's path", "which file to open"]) {
    expect(headings.some((h) => h.includes(part))).toBe(true);
  }
});

test("the checker resolves each kind of path and reports the missing ones", () => {
  const paths = ["src/", "src/core/", "src/core/broker.ts", "src/core/store/", "src/core/store/store.ts", "src/grpc/", "src/grpc/call/", "src/grpc/call/routes.ts", "tests/", "tests/docs/", "bench/", "bench/run.ts", "bench/lib/", "bench/lib/runner.ts"];
  const doc = [
    "`src/core/broker.ts` and core/store/store.ts, call/routes.ts, tests/docs, bench/run.ts.",
    "node:http2, @google-cloud/pubsub, /v1/topics, hpack.js, RLIMIT_AS/DATA, Topics.publish are no paths.",
    "```",
    "src/core/",
    "  broker.ts store/ store.ts",
    "  routes.ts",
    "src/grpc/   call/ routes.ts",
    "bench/      lib/runner.ts lib/gone.ts",
    "```",
    "src/core/gone.ts, grpc/lean/, utf8-check.ts, tests/nope/",
  ].join("\n");
  expect(missingPaths(doc, paths)).toEqual([
    "line 6: routes.ts",
    "line 8: lib/gone.ts",
    "line 10: src/core/gone.ts",
    "line 10: grpc/lean/",
    "line 10: utf8-check.ts",
    "line 10: tests/nope/",
  ]);
});

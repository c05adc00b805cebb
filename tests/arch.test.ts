/**
 * The core is transport- and runtime-free: no file under src/core/ imports @grpc/*, bun, node:*
 * (or a bare Node built-in) or anything outside src/core/, and none reads process., Date.now( or Bun.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const CORE = resolve(import.meta.dir, "../src/core");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.(ts|tsx|js|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Drops block comments and line comments (a `//` at line start or after whitespace, so URLs in strings survive). */
function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
}

const NODE_BUILTINS = new Set([
  "fs", "path", "url", "os", "crypto", "timers", "events", "util", "process", "child_process",
  "net", "http", "http2", "https", "stream", "buffer", "worker_threads", "perf_hooks", "async_hooks",
]);

function importsOf(src: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\s\S]*?\s+from\s+)?["']([^"']+)["']/g,
    /\bexport\s+(?:type\s+)?(?:\*|\{[\s\S]*?\})\s+from\s+["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of src.matchAll(re)) specs.push(m[1]);
  return specs;
}

/** Every rule a core file breaks, as readable strings. */
function violations(file: string, raw: string): string[] {
  const src = stripComments(raw);
  const out: string[] = [];
  for (const spec of importsOf(src)) {
    if (spec.startsWith("@grpc/")) out.push(`imports ${spec}`);
    else if (spec === "bun" || spec.startsWith("bun:")) out.push(`imports ${spec}`);
    else if (spec.startsWith("node:") || NODE_BUILTINS.has(spec.split("/")[0])) out.push(`imports ${spec}`);
    else if (spec.startsWith(".")) {
      const target = resolve(dirname(file), spec);
      if (relative(CORE, target).startsWith("..")) out.push(`imports ${spec} from outside src/core`);
    }
  }
  for (const [needle, what] of [
    [/\bprocess\./, "reads process."],
    [/\bDate\.now\s*\(/, "calls Date.now("],
    [/\bBun\./, "uses Bun."],
    [/\bsetTimeout\s*\(|\bsetInterval\s*\(/, "arms a real timer"],
  ] as const) {
    if (needle.test(src)) out.push(what);
  }
  return out;
}

describe("architecture", () => {
  const files = filesUnder(CORE);

  test("src/core has files to check", () => {
    expect(files.length).toBeGreaterThan(5);
    expect(files.some((f) => f.endsWith("broker.ts"))).toBe(true);
  });

  test("no file under src/core imports @grpc/*, bun, node:* or an adapter, or reads process., Date.now(, Bun.", () => {
    const found: string[] = [];
    for (const f of files) for (const v of violations(f, readFileSync(f, "utf8"))) found.push(`${relative(CORE, f)}: ${v}`);
    expect(found).toEqual([]);
  });

  test("the checker itself catches each forbidden pattern", () => {
    const fake = join(CORE, "fake.ts");
    const bad = [
      'import * as grpc from "@grpc/grpc-js";',
      'import { serve } from "bun";',
      'import { readFileSync } from "node:fs";',
      'import path from "path";',
      'import type { Broker } from "../grpc/server.ts";',
      'export * from "../emulator.ts";',
      'const m = await import("node:os");',
      "const port = process.env.PORT;",
      "const t = Date.now();",
      "Bun.sleep(1);",
      "setTimeout(() => {}, 5);",
    ];
    for (const line of bad) expect(violations(fake, line).length).toBe(1);
    const ok = [
      'import { invalid } from "./errors.ts";',
      'const url = "https://cloud.google.com/pubsub/quotas"; // no process. here',
      "/** Date.now() is never called here. */ const x = 1;",
      "// process.env is read in config.ts",
    ];
    for (const line of ok) expect(violations(fake, line)).toEqual([]);
  });
});

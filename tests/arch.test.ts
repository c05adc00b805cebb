/**
 * The core is transport- and runtime-free: no file under src/core/ imports @grpc/*, bun, node:*
 * (or a bare Node built-in) or anything outside src/core/, and none reads process., Date.now( or Bun.
 * The rest of src/ keeps a layer order (each area imports only lower layers or itself) and has no
 * import cycle, type imports included.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../src");
const CORE = join(SRC, "core");

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

/**
 * The layer of each area of src/ (its first path segment), lowest first: a file imports only from
 * a lower layer or from its own area. Every area must be listed, so a new one is placed on purpose.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["core"],
  ["runtime"],
  ["proto"],
  ["http", "transforms", "persistence", "sinks", "push-http", "rpc"],
  ["ingest"],
  ["grpc", "rest", "admin", "provision", "cli"],
  ["server"],
  ["main.ts", "api"],
];

const areaOf = (file: string) => relative(SRC, file).split("/")[0]!;

/** Relative imports of each file under `root` (node_modules aside), resolved to files under it. */
function importGraph(root = SRC): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of filesUnder(root)) {
    if (f.includes("/node_modules/")) continue;
    const specs = importsOf(stripComments(readFileSync(f, "utf8"))).filter((s) => s.startsWith("."));
    graph.set(f, specs.map((s) => resolve(dirname(f), s)).filter((t) => !relative(root, t).startsWith("..")));
  }
  return graph;
}

/** Strongly connected groups of more than one file (or a file importing itself): the cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("layers", () => {
  const graph = importGraph();
  const layer = new Map(LAYERS.flatMap((areas, i) => areas.map((a) => [a, i] as const)));

  test("every area of src/ has a layer", () => {
    const areas = new Set([...graph.keys()].map(areaOf));
    expect([...areas].filter((a) => !layer.has(a))).toEqual([]);
  });

  test("each area imports only lower layers or itself", () => {
    const found: string[] = [];
    for (const [file, targets] of graph) {
      const from = areaOf(file);
      for (const t of targets) {
        const to = areaOf(t);
        if (to !== from && !(layer.get(to)! < layer.get(from)!)) found.push(`${relative(SRC, file)} imports ${relative(SRC, t)}`);
      }
    }
    expect(found).toEqual([]);
  });

  test("no import cycle in src/", () => {
    expect(cycles(graph).map((c) => c.map((f) => relative(SRC, f)).sort().join(" → "))).toEqual([]);
  });

  // The harness and the benches are code others carry on too: a cycle there is as hard to follow.
  for (const dir of ["tests", "bench"]) {
    test(`no import cycle in ${dir}/`, () => {
      const root = resolve(SRC, "..", dir);
      expect(cycles(importGraph(root)).map((c) => c.map((f) => relative(root, f)).sort().join(" → "))).toEqual([]);
    });
  }

  test("the cycle finder finds a cycle", () => {
    const g = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
    expect(cycles(g).map((c) => c.sort())).toEqual([["a", "b", "c"]]);
  });
});

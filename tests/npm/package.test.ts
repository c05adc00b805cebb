/**
 * The npm package as a Node user gets it: `npm pack`, then `npm install --ignore-scripts` of the
 * tarball into a fresh folder with a PATH that holds Node and npm but no Bun. There `npx pubsub-emulator` and the
 * start() API (plain Node, node:test, Vitest) serve the official client; Bun comes from the one
 * @oven/bun-* package npm picked for this machine. Needs the npm registry (CI has it).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const FIXTURES = join(import.meta.dir, "fixtures");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
/** The official client the fixtures use, as pinned for the repository's own tests. */
const CLIENT = "@google-cloud/pubsub@6.3.0";
const VITEST = "vitest@4.1.12";
const JEST = "jest@30.5.2";
const READY = /\[pubsub\] INFO: Server started, listening on (\d+)/;
const INSTALL_MS = 300_000;

/** docs/npm.md's examples, each run as the file a user would paste it into. */
const DOC_EXAMPLES = [
  ["bun test", "docs-bun.test.ts"],
  ["Vitest", "docs-vitest.test.ts"],
  ["Jest", "docs-jest.test.cjs"],
  ["node:test", "docs-node-test.mjs"],
] as const;

/** The first code block under `### heading` in docs/npm.md. */
function docExample(heading: string): string {
  const docs = readFileSync(join(ROOT, "docs/npm.md"), "utf8");
  const section = docs.split(`\n### ${heading}\n`)[1];
  const block = section && /```(?:ts|js)\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error(`docs/npm.md has no code block under "### ${heading}"`);
  return block[1];
}

let dir = "";
let project = "";
let env: Record<string, string> = {};

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** Runs to completion; killed (SIGKILL) after `ms`, which the result then says. */
function run(cmd: string, args: string[], { cwd = project, ms = 60_000 } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      err += `\n[killed after ${ms} ms]`;
    }, ms);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err });
    });
  });
}

const ok = (r: Ran) => {
  if (r.code !== 0) throw new Error(`exit ${r.code ?? r.signal}\nstdout:\n${r.out.slice(-4000)}\nstderr:\n${r.err.slice(-4000)}`);
  return r;
};

/** A server started with `cmd`: resolves with its port once the ready line is out; killed after `ms`. */
function serve(cmd: string, args: string[], { detached = false, ms = 60_000 } = {}) {
  const child: ChildProcess = spawn(cmd, args, { cwd: project, env, stdio: ["ignore", "pipe", "pipe"], detached });
  let text = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  const killer = setTimeout(() => child.kill("SIGKILL"), ms);
  exited.then(() => clearTimeout(killer));
  const port = new Promise<number>((resolve, reject) => {
    const seen = () => {
      const m = READY.exec(text);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on("data", (d) => ((text += d), seen()));
    child.stderr!.on("data", (d) => (text += d));
    exited.then((e) => reject(new Error(`exited (${e.code ?? e.signal}) before its ready line:\n${text}`)));
  });
  return { child, port, exited, output: () => text };
}

/** True once nothing accepts connections on `port` (what a stopped emulator leaves). */
const refused = (port: number) =>
  Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
    (s) => (s.end(), false),
    () => true,
  );

/** A folder holding only node, npm, npx and sh, to be the whole PATH. */
function nodeOnlyPath(root: string): string {
  const bin = join(root, "bin");
  mkdirSync(bin);
  for (const tool of ["node", "npm", "npx", "sh"]) {
    const found = Bun.which(tool);
    if (!found) throw new Error(`${tool} is not on the PATH: this test needs Node (>= 20) and npm`);
    symlinkSync(realpathSync(found), join(bin, tool));
  }
  return bin;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pubsub-emulator-npm-"));
  const path = nodeOnlyPath(dir);
  env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].startsWith("PUBSUB_")));
  Object.assign(env, { PATH: path, METADATA_SERVER_DETECTION: "none", npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", NO_COLOR: "1" });
  delete env.FORCE_COLOR;
  project = join(dir, "consumer");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  for (const f of ["round-trip.mjs", "api.mjs"]) copyFileSync(join(FIXTURES, f), join(project, f));
  copyFileSync(join(FIXTURES, "node-test-api.mjs"), join(project, "node-api.test.mjs"));
  copyFileSync(join(FIXTURES, "vitest-api.mjs"), join(project, "api.vitest.test.mjs"));

  const packed = ok(await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: ROOT, ms: 120_000 }));
  const tarball = join(dir, (JSON.parse(packed.out) as { filename: string }[])[0].filename);
  // --ignore-scripts: Bun must arrive without any install script (pnpm and future npm block them).
  ok(await run("npm", ["install", "--ignore-scripts", tarball, CLIENT, VITEST, JEST], { ms: INSTALL_MS }));
  for (const [heading, file] of DOC_EXAMPLES) writeFileSync(join(project, file), docExample(heading));
}, INSTALL_MS + 150_000);

// A few thousand files (Vitest, Jest, Bun): more than the default hook timeout on a busy host.
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
}, 120_000);

describe("the npm package where only Node is installed", () => {
  test("no Bun on the PATH; npm installed this machine's Bun package and no other", async () => {
    expect((await run("sh", ["-c", "command -v bun"])).code).not.toBe(0);
    const node = ok(await run("node", ["-p", "process.versions.node"])).out.trim();
    expect(Number(node.split(".")[0])).toBeGreaterThanOrEqual(20);
    const oven = readdirSync(join(project, "node_modules/@oven"));
    expect(oven).toHaveLength(1);
    expect(oven[0]).toStartWith(`bun-${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "arm64" ? "aarch64" : "x64"}`);
    const manifest = JSON.parse(readFileSync(join(project, "node_modules/pubsub-emulator/package.json"), "utf8"));
    expect(manifest.license).toBe("Apache-2.0");
    expect(manifest.private).toBeUndefined();
  });

  test("npx pubsub-emulator --version prints package.json's version", async () => {
    const r = ok(await run("npx", ["pubsub-emulator", "--version"]));
    expect(r.out).toStartWith(`pubsub-emulator ${PKG.version} (bun `);
  });

  test("npx pubsub-emulator serves the official client, and Ctrl-C (SIGINT to its process group) stops it cleanly", async () => {
    const server = serve("npx", ["pubsub-emulator", "--host-port", "127.0.0.1:0"], { detached: true });
    const port = await server.port;
    const r = ok(await run("node", ["round-trip.mjs", `127.0.0.1:${port}`]));
    const trip = JSON.parse(r.out);
    expect(trip.id).toBe(trip.sent);
    expect(trip.data).toBe("hello cli");
    process.kill(-server.child.pid!, "SIGINT");
    const exit = await server.exited;
    expect(server.output()).toContain("SIGINT: shutting down");
    expect(server.output()).not.toContain("ERROR");
    // npm exec ends as the terminal's Ctrl-C asks (by the signal); the emulator under it stopped cleanly.
    expect(exit.code === 0 || exit.signal === "SIGINT").toBe(true);
    expect(await refused(port)).toBe(true);
  }, 90_000);

  test("the launcher passes SIGTERM on and the exit code back", async () => {
    const launcher = join(project, "node_modules/.bin/pubsub-emulator");
    const server = serve(launcher, ["--host-port", "127.0.0.1:0"]);
    const port = await server.port;
    server.child.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
    expect(server.output()).toContain("SIGTERM: shutting down");
    expect(await refused(port)).toBe(true);
    const bad = await run(launcher, ["--no-such-flag"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("unknown flag --no-such-flag");
  }, 90_000);

  test("start() under Node: a Bun child process; the official client configured by emu.env round-trips a message", async () => {
    const r = JSON.parse(ok(await run("node", ["api.mjs"])).out);
    expect(r.mode).toBe("child-process");
    expect(r.env).toEqual({ PUBSUB_EMULATOR_HOST: r.host, PUBSUB_PROJECT_ID: "npm-test" });
    expect(r.roundTrip.id).toBe(r.roundTrip.sent);
    expect(r.roundTrip.data).toBe("hello api");
    expect(r.advanced).toBe(90_000);
    expect(r.reset.topics).toBe(1);
  }, 60_000);

  test("start() under Bun from the installed package runs in process", async () => {
    const bun = join(project, "node_modules/@oven", readdirSync(join(project, "node_modules/@oven"))[0], "bin", process.platform === "win32" ? "bun.exe" : "bun");
    const r = JSON.parse(ok(await run(bun, ["api.mjs"])).out);
    expect(r.mode).toBe("in-process");
    expect(r.roundTrip.id).toBe(r.roundTrip.sent);
    expect(r.advanced).toBe(90_000);
  }, 60_000);

  test("a node:test file using start() passes", async () => {
    const r = ok(await run("node", ["--test", "node-api.test.mjs"]));
    expect(r.out).toMatch(/# pass 2\b/);
    expect(r.out).toMatch(/# fail 0\b/);
  }, 90_000);

  test("docs/npm.md's examples pass: bun test (in process), Vitest, Jest and node:test (child process)", async () => {
    const bun = join(project, "node_modules/@oven", readdirSync(join(project, "node_modules/@oven"))[0], "bin", process.platform === "win32" ? "bun.exe" : "bun");
    const runs = {
      "bun test": await run(bun, ["test", "./docs-bun.test.ts"]),
      Vitest: await run("npx", ["vitest", "run", "docs-vitest.test.ts"], { ms: 120_000 }),
      Jest: await run("npx", ["jest", "docs-jest.test.cjs"], { ms: 120_000 }),
      "node:test": await run("node", ["--test", "docs-node-test.mjs"]),
    };
    const summary = Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, r.code]));
    if (Object.values(summary).some((c) => c !== 0)) {
      for (const [k, r] of Object.entries(runs)) if (r.code !== 0) console.error(`${k}:\n${Bun.stripANSI(r.out + r.err).slice(-3000)}`);
    }
    expect(summary).toEqual({ "bun test": 0, Vitest: 0, Jest: 0, "node:test": 0 });
    expect(Bun.stripANSI(runs.Jest.err)).toMatch(/Tests:\s+1 passed, 1 total/);
    expect(runs["node:test"].out).toMatch(/# pass 1\b/);
  }, 300_000);

  test("a Vitest file using start() passes", async () => {
    const r = ok(await run("npx", ["vitest", "run", "api.vitest.test.mjs"], { ms: 120_000 }));
    expect(Bun.stripANSI(r.out + r.err)).toMatch(/Tests\s+2 passed \(2\)/);
  }, 150_000);
});

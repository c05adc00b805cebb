/**
 * The entry point as a process: each command's output and exit code, gcloud's command line, and
 * the started line printed only once provisioning succeeded.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PubSub } from "@google-cloud/pubsub";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { runMain } from "../helpers/server-process.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
const T = 15_000;
// The child must not inherit settings from whoever runs the tests.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PUBSUB_")));

/** Runs main.ts to its end (bounded) and returns its exit code and output. */
const run = (args: string[], env: Record<string, string> = {}) => runMain(args, { env });

/** Starts main.ts, waits (bounded) for the started line, runs `whileUp`, then stops it with SIGTERM. */
async function startAndStop(args: string[], env: Record<string, string> = {}, whileUp?: (port: number) => Promise<void>) {
  const p = Bun.spawn([process.execPath, MAIN, ...args, "--host-port", "127.0.0.1:0"], {
    env: { ...ENV, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => p.kill("SIGKILL"), 10_000);
  let stdout = "";
  const decoder = new TextDecoder();
  const reader = p.stdout.getReader();
  const readAll = async (until?: RegExp) => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      stdout += decoder.decode(value, { stream: true });
      if (until?.test(stdout)) return;
    }
  };
  await readAll(/Server started, listening on \d+/);
  const port = Number(/listening on (\d+)/.exec(stdout)?.[1] ?? 0);
  if (port && whileUp) await whileUp(port);
  p.kill("SIGTERM");
  const [, stderr, code] = await Promise.all([readAll(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(killer);
  return { port, code, stdout, stderr };
}

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

describe("commands", () => {
  test("--version and version print the version, exit 0", async () => {
    for (const args of [["--version"], ["version"]]) {
      const r = await run(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^pubsub-emulator \d+\.\d+\.\d+ \(bun /);
    }
  }, T);

  test("--help prints the usage with the settings table, exit 0", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("PUBSUB_HOST_PORT");
    expect(r.stdout).toContain("gcloud beta emulators pubsub start");
  }, T);

  test("env-init prints the export line for the configured address, exit 0", async () => {
    expect((await run(["env-init"])).stdout).toBe("export PUBSUB_EMULATOR_HOST=localhost:8085\n");
    expect((await run(["env-init"], { PUBSUB_HOST_PORT: "0.0.0.0:9999" })).stdout).toBe("export PUBSUB_EMULATOR_HOST=localhost:9999\n");
    const g = await run("gcloud beta emulators pubsub env-init --host-port=127.0.0.1:7000".split(" "));
    expect(g).toMatchObject({ code: 0, stdout: "export PUBSUB_EMULATOR_HOST=127.0.0.1:7000\n" });
  }, T);

  test("healthcheck exits 0 when the emulator answers, 1 when nothing listens", async () => {
    expect((await run(["healthcheck", "--host-port", emu.endpoint])).code).toBe(0);
    expect((await run(["healthcheck"], { PUBSUB_HOST_PORT: emu.endpoint })).code).toBe(0);
    const down = await run(["healthcheck", "--host-port", "127.0.0.1:1"]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain("unhealthy: http://127.0.0.1:1/health");
  }, T);

  test("healthcheck exits 1 when the port answers something other than the emulator's health", async () => {
    const other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("no", { status: 503 }) });
    try {
      const r = await run(["healthcheck", "--host-port", `127.0.0.1:${other.port}`]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("HTTP 503");
    } finally {
      other.stop(true);
    }
  }, T);

  test("an unknown command, flag or bad value exits 2 naming it", async () => {
    expect(await run(["serve"])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "serve"') });
    expect(await run(["--frob"])).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown flag --frob") });
    expect(await run([], { PUBSUB_PULL_WAIT_MS: "x" })).toMatchObject({ code: 2, stderr: expect.stringContaining("--pull-wait-ms") });
  }, T);
});

describe("start", () => {
  test("gcloud's command line starts the emulator on its --data-dir; ignored flags are warned about", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gcloud-data-"));
    const r = await startAndStop(`gcloud beta emulators pubsub start --project=p --log-http --data-dir ${dir} --verbosity=info`.split(" "));
    expect(r.port).toBeGreaterThan(0);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("ignoring gcloud flag --log-http");
    expect(`${r.stdout}${r.stderr}`).toContain(`data dir ${dir}`);
  }, T);

  test("the started line comes after provisioning: what was declared exists when it is printed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "main-"));
    const config = join(dir, "p.yaml");
    writeFileSync(config, "projects:\n  - id: ready\n    topics:\n      - name: ready-topic\n        subscriptions: [ready-sub]\n");
    let subs: string[] = [];
    try {
      const r = await startAndStop(["--config", config], {}, async (port) => {
        const ps = new PubSub({ projectId: "ready", apiEndpoint: `127.0.0.1:${port}`, emulatorMode: true });
        subs = (await ps.topic("ready-topic").getSubscriptions())[0].map((x) => x.name);
        await ps.close();
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("provisioned 2 topics and subscriptions");
      expect(subs).toEqual(["projects/ready/subscriptions/ready-sub"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, T);

  test("PUBSUB_ADDRESS_FILE: start writes the address it serves; healthcheck without --host-port checks it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "address-"));
    const file = join(dir, "address");
    // What the image sets: the default address in the environment, another port on the command line.
    const env = { PUBSUB_ADDRESS_FILE: file, PUBSUB_HOST_PORT: "127.0.0.1:1" };
    const checks: Record<string, number> = {};
    try {
      const r = await startAndStop([], env, async (port) => {
        expect(readFileSync(file, "utf8")).toBe(`127.0.0.1:${port}\n`);
        checks.recorded = (await run(["healthcheck"], env)).code;
        checks.flagWins = (await run(["healthcheck", "--host-port=127.0.0.1:1"], env)).code;
      });
      expect(r.code).toBe(0);
      expect(checks).toEqual({ recorded: 0, flagWins: 1 });
      // A missing or foreign file leaves the configured address.
      expect((await run(["healthcheck"], { PUBSUB_ADDRESS_FILE: join(dir, "none"), PUBSUB_HOST_PORT: emu.endpoint })).code).toBe(0);
      writeFileSync(file, "x".repeat(400));
      expect((await run(["healthcheck"], { PUBSUB_ADDRESS_FILE: file, PUBSUB_HOST_PORT: emu.endpoint })).code).toBe(0);
      writeFileSync(file, "no address\n");
      const bad = await run(["healthcheck"], { PUBSUB_ADDRESS_FILE: file, PUBSUB_HOST_PORT: "127.0.0.1:1" });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("unhealthy: http://127.0.0.1:1/health");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, T);

  test("an address file that cannot be written is warned about; the emulator serves all the same", async () => {
    const r = await startAndStop([], { PUBSUB_ADDRESS_FILE: "/nonexistent/dir/address" });
    expect(r.port).toBeGreaterThan(0);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("cannot write PUBSUB_ADDRESS_FILE /nonexistent/dir/address");
  }, T);

  test("an invalid provisioning entry stops the start before the started line, naming the entry", async () => {
    const r = await run(["--host-port", "127.0.0.1:0"], { PUBSUB_PROJECT1: "p,good-topic:good-sub,ab" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot provision: provisioning spec "p,good-topic:good-sub,ab", topic "ab"');
    expect(r.stdout).not.toContain("Server started");
  }, T);

  test("a missing config file stops the start naming the file", async () => {
    const r = await run(["--host-port", "127.0.0.1:0", "--config", "/nonexistent/p.yaml"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot read the config file /nonexistent/p.yaml");
    expect(r.stdout).not.toContain("Server started");
  }, T);
});

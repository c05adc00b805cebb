/** The official client under Node (not Bun) against the emulator: runs node-smoke.mjs as a child. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { fileURLToPath } from "node:url";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";

const SCRIPT = fileURLToPath(new URL("./node-smoke.mjs", import.meta.url));
const NODE = Bun.which("node") ?? "/usr/bin/node";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

test("node-smoke.mjs publishes and receives 100 messages under Node", async () => {
  const child = Bun.spawn([NODE, SCRIPT], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    env: { ...process.env, PUBSUB_EMULATOR_HOST: emu.endpoint, PUBSUB_PROJECT_ID: "node-smoke", METADATA_SERVER_DETECTION: "none" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => child.kill(), 35_000);
  const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  clearTimeout(killer);
  expect({ code, stderr: code === 0 ? "" : err.trim() }).toEqual({ code: 0, stderr: "" });
  expect(out).toContain("node-smoke: OK 100 messages on Node v");
}, 40_000);

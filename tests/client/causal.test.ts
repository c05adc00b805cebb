/**
 * Causal delivery through the official client: a message reaches a subscriber only after its
 * Publish was answered, as on the real service, so `id = await publish()` then "wait for the
 * message whose id is id" works on default flags. Server and client each run as a process of their
 * own (causal-client.ts), as users run them: a pause of a shared event loop, or a collection in a
 * test runner's large heap, hands the client both answers in one turn, which says nothing of the
 * server.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { fileURLToPath } from "node:url";
import { spawnServer, type ServerProcess } from "../helpers/server-process.ts";
import { loadConfig } from "../../src/runtime/config.ts";

const SCRIPT = fileURLToPath(new URL("./causal-client.ts", import.meta.url));

let server: ServerProcess;
beforeAll(async () => {
  server = await spawnServer([]);
});
afterAll(async () => {
  await server.stop();
});

test("raw stream and high-level client: no message before its Publish resolved", async () => {
  const child = Bun.spawn([process.execPath, SCRIPT, String(server.port)], { stdout: "pipe", stderr: "pipe", env: { ...process.env, METADATA_SERVER_DETECTION: "none" } });
  const killer = setTimeout(() => child.kill(), 40_000);
  const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  clearTimeout(killer);
  expect({ code, stderr: code === 0 ? "" : err.trim().slice(-2000) }).toEqual({ code: 0, stderr: "" });
  const r = JSON.parse(out.trim().split("\n").pop()!);
  expect(r).toEqual({ raw: { early: [], received: 30 }, highLevel: { ignored: [], got: 10 } });
}, 45_000);

test("--causal-delay-ms: a number of ms, or off", () => {
  expect(loadConfig(["--causal-delay-ms", "off"], {}).causalDelayMs).toBe(-1);
  expect(loadConfig(["--causal-delay-ms=5"], {}).causalDelayMs).toBe(5);
  expect(() => loadConfig(["--causal-delay-ms", "-3"], {})).toThrow(/--causal-delay-ms/);
});

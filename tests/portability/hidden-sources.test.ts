/**
 * The fallbacks for a system without Linux's /proc and cgroup files (macOS, Windows), shown on
 * Linux by hiding them for real: the server runs in its own mount namespace where
 * /proc/self/{limits,statm,cgroup} read as empty and /sys/fs/cgroup is an empty tmpfs, under an
 * address-space limit it therefore cannot see. It must start with the physical-memory budget,
 * serve the official client with --data-dir (checkpoint worker included), answer its healthcheck
 * command and stop cleanly. Needs root (unshare -m, mount).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { totalmem, tmpdir } from "node:os";
import { join } from "node:path";
import { clientFor, spawnServer, type ServerProcess } from "../helpers/server-process.ts";
import { unique } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";

const HIDE = [
  "ulimit -v 3145728", // 3 GiB: seen, it would make the budget about a third of that
  "mount --bind /dev/null /proc/$$/limits",
  "mount --bind /dev/null /proc/$$/statm",
  "mount --bind /dev/null /proc/$$/cgroup",
  "mount -t tmpfs hidden /sys/fs/cgroup",
].join(" && ");
const hidden = ["unshare", "-m", "--propagation", "private", "sh", "-c", `${HIDE} && exec "$@"`, "sh"];

let server: ServerProcess;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "hidden-sources-"));
  server = await spawnServer(["--data-dir", dataDir], { wrap: hidden });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("the hiding is real: the child reads nothing from those files", async () => {
  // A Bun child exec'd like the server (same pid as the shell that hid them), reading what it reads.
  const read = `const fs = require("fs"); console.log(JSON.stringify([["limits", "statm", "cgroup"].map((f) => fs.readFileSync("/proc/self/" + f, "utf8")), fs.readdirSync("/sys/fs/cgroup")]))`;
  const probe = Bun.spawnSync([...hidden, process.execPath, "-e", read]);
  expect(probe.stderr.toString()).toBe("");
  expect(JSON.parse(probe.stdout.toString())).toEqual([["", "", ""], []]);
});

test("the budget falls back to half the physical memory", async () => {
  const metrics = await (await fetch(`http://${server.endpoint}/metrics`)).text();
  const budget = Number(/^pubsub_emulator_memory_budget_bytes (\d+)/m.exec(metrics)?.[1]);
  expect(budget).toBe(Math.floor(totalmem() * 0.5));
});

test("the official client round-trips a message with --data-dir, and the checkpoint worker runs", async () => {
  const pubsub = clientFor(server.port);
  try {
    const [topic] = await pubsub.createTopic(unique("hidden"));
    const [sub] = await topic.createSubscription(unique("hidden-sub"));
    const id = await topic.publishMessage({ data: Buffer.from("no /proc here") });
    const [received] = await receive(sub, 1);
    expect(received?.id).toBe(id);
    expect(received?.data.toString()).toBe("no /proc here");
  } finally {
    await pubsub.close();
  }
  expect(server.output()).not.toContain("checkpoint worker");
  expect(server.output()).not.toMatch(/ERROR|WARN/);
});

test("the healthcheck command answers under the same hiding", () => {
  const r = Bun.spawnSync([...hidden, process.execPath, "src/main.ts", "healthcheck", "--host-port", server.endpoint], { cwd: join(import.meta.dir, "../..") });
  expect(r.stderr.toString()).toBe("");
  expect(r.exitCode).toBe(0);
});

test("SIGTERM stops it cleanly (exit 0)", async () => {
  expect(await server.stop()).toBe(0);
});

/**
 * Disk faults under a running server with --data-dir, on real small file systems (root: tmpfs
 * mounts, bind mounts): a full disk answers RESOURCE_EXHAUSTED and resumes by itself when space
 * returns; a data dir removed under the server is reported and refused, never written into the
 * void, and so is a database file cut short under it; a read-only data dir stops the start naming
 * it. After each, a kill -9 and a restart deliver every message whose Publish returned, through the
 * official client. Loops are bounded.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import * as grpc from "@grpc/grpc-js";
import { mkdtempSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grpcClients, statusOf, type GrpcClients } from "../helpers/raw-grpc.ts";
import { receive } from "../helpers/receive.ts";
import { clientFor, spawnServer, type ServerProcess } from "../helpers/server-process.ts";
import { failingDisk, readOnlyBind, resizeTmpfs, tmpfs, unmountAll } from "../helpers/mounts.ts";
import { PROJECT } from "../helpers/emulator.ts";

const TOPIC = `projects/${PROJECT}/topics/disk`;
const SUB = `projects/${PROJECT}/subscriptions/disk`;
const BATCH = Array.from({ length: 100 }, (_, i) => ({ data: Buffer.alloc(1024, 65 + (i % 26)) }));

const running: ServerProcess[] = [];
let c: GrpcClients | null = null;
afterEach(async () => {
  c?.close();
  c = null;
  await Promise.all(running.splice(0).map((s) => s.kill9()));
});
afterAll(unmountAll);

async function start(dir: string) {
  const s = await spawnServer(["--data-dir", dir, "--log-level", "info"]);
  running.push(s);
  c = grpcClients(s.endpoint);
  return s;
}

async function setup(): Promise<void> {
  await c!.call(c!.publisher, "CreateTopic", { name: TOPIC });
  await c!.call(c!.subscriber, "CreateSubscription", { name: SUB, topic: TOPIC, ackDeadlineSeconds: 600 });
}

/** A server on `dir` with the topic and subscription made. */
async function startWithTopic(dir: string) {
  const s = await start(dir);
  await setup();
  return s;
}

const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `pubsub-${name}-`));
const publishBatch = () => c!.call(c!.publisher, "Publish", { topic: TOPIC, messages: BATCH });

/** The call is refused UNAVAILABLE (with `words` in its details, when given). */
async function expectUnavailable(call: Promise<unknown>, words?: string) {
  const s = await statusOf(call);
  expect(s.code).toBe(grpc.status.UNAVAILABLE);
  if (words) expect(s.details).toContain(words);
}

/** Publishes batches until one is refused (at most `max`); returns the ids that were answered and the refusal. */
async function publishUntilRefused(max: number) {
  const ids: string[] = [];
  for (let i = 0; i < max; i++) {
    try {
      ids.push(...(await publishBatch()).messageIds);
    } catch (e) {
      return { ids, refused: e as grpc.ServiceError };
    }
  }
  return { ids, refused: null };
}

/** Kill -9, restart on `dir`, and receive with the official client: exactly `ids` come back. */
async function expectAllAfterRestart(server: ServerProcess | null, dir: string, ids: string[]) {
  c?.close();
  c = null;
  await server?.kill9();
  const again = await start(dir);
  const ps = clientFor(again.port);
  try {
    const got = await receive(ps.subscription(SUB), ids.length, { ms: 30_000 });
    expect(new Set(got.map((m) => m.id))).toEqual(new Set(ids));
    for (const m of got) expect(m.data.length).toBe(1024);
  } finally {
    await ps.close();
  }
}

describe("a full disk (a 12 MiB tmpfs)", () => {
  test("Publish is RESOURCE_EXHAUSTED naming the full data dir; reads go on; it resumes once space returns; nothing answered is lost", async () => {
    const mnt = tmpfs(12);
    const dir = join(mnt, "data");
    const server = await startWithTopic(dir);
    const { ids, refused } = await publishUntilRefused(400);
    expect(refused?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(refused?.details).toContain(`data dir ${dir} is full`);
    // SQLite's own write, or a message body's (bodies.ts), whichever the disk refused first.
    expect(refused?.details).toMatch(/SQLITE_FULL|ENOSPC/);
    expect(ids.length).toBeGreaterThan(1000);
    await server.printed(/a write failed \((SQLITE_FULL|ENOSPC)/);
    expect(server.output()).not.toContain("internal error");
    const metrics = async () => (await fetch(`http://${server.endpoint}/metrics.json`, { signal: AbortSignal.timeout(5000) })).json();
    expect((await metrics()).dataDirFault).toMatchObject({ code: "RESOURCE_EXHAUSTED" });
    expect(await (await fetch(`http://${server.endpoint}/metrics`, { signal: AbortSignal.timeout(5000) })).text()).toContain("pubsub_emulator_data_dir_fault 1");
    // While full, later publishes are refused the same way before they change anything.
    expect((await statusOf(publishBatch())).code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    // Deliveries go on from memory.
    const pulled = await c!.call(c!.subscriber, "Pull", { subscription: SUB, maxMessages: 50, returnImmediately: true });
    expect(pulled.receivedMessages.length).toBe(50);

    resizeTmpfs(mnt, 64);
    let code = -1;
    for (let i = 0; i < 40 && code !== grpc.status.OK; i++) {
      const s = await statusOf(c!.call(c!.publisher, "Publish", { topic: TOPIC, messages: BATCH.slice(0, 1) }).then((r) => (ids.push(...r.messageIds), r)));
      code = s.code;
      if (code !== grpc.status.OK) await Bun.sleep(250);
    }
    expect(code).toBe(grpc.status.OK);
    await server.printed("takes writes again");
    expect((await metrics()).dataDirFault).toBe(null);
    expect(server.exitCode()).toBe(null);
    await expectAllAfterRestart(server, dir, ids);
  }, 90_000);
});

describe("a failing disk (ext4 on a loop device whose backing file runs out of room)", () => {
  test("Publish is refused naming the error, logged, the server lives; after e2fsck a restart serves a consistent state of answered messages or refuses the damaged data dir", async () => {
    const disk = failingDisk(20, 64);
    const dir = join(disk.dir, "data");
    const server = await startWithTopic(dir);
    const { ids, refused } = await publishUntilRefused(400);
    // The block device's failure reaches SQLite as ENOSPC (the WAL's write) or EIO (an fsync).
    expect([grpc.status.RESOURCE_EXHAUSTED, grpc.status.UNAVAILABLE]).toContain(refused!.code);
    expect(refused?.details).toContain(`data dir ${dir}`);
    expect(refused?.details).toMatch(/SQLITE_(FULL|IOERR|READONLY)|ENOSPC|EIO|EROFS/);
    expect(ids.length).toBeGreaterThan(100);
    await server.printed(/a write failed \((SQLITE_(FULL|IOERR|READONLY)|ENOSPC|EIO|EROFS)/);
    expect(server.output()).not.toContain("internal error");
    await Bun.sleep(1100);
    expect((await statusOf(publishBatch())).code).not.toBe(grpc.status.OK);
    expect(server.exitCode()).toBe(null);
    c!.close();
    c = null;
    await server.kill9();
    running.splice(0);
    disk.repair();
    // What the file system itself lost (ext4 logs "potential data loss" when it cannot write an
    // extent it had accepted) the emulator cannot bring back: at start it either refuses the
    // damaged database, naming it, or comes back at SQLite's last consistent state — only whole
    // messages it had answered, never a half-read one.
    const again = await spawnServer(["--data-dir", dir]).catch((e: Error) => e.message);
    if (typeof again === "string") {
      expect(again).toMatch(/exited with code 1 before its ready line[^]*pubsub-emulator\.sqlite is not a readable pubsub-emulator database/);
      return;
    }
    running.push(again);
    c = grpcClients(again.endpoint);
    const answered = new Set(ids);
    const got = new Set<string>();
    for (let i = 0; i < ids.length / 100 + 10; i++) {
      const res = await c.call(c.subscriber, "Pull", { subscription: SUB, maxMessages: 1000, returnImmediately: true });
      const received = res.receivedMessages ?? [];
      if (received.length === 0) break;
      for (const r of received) {
        expect(answered.has(r.message.messageId)).toBe(true);
        expect(r.message.data.length).toBe(1024);
        got.add(r.message.messageId);
      }
      await c.call(c.subscriber, "Acknowledge", { subscription: SUB, ackIds: received.map((r: { ackId: string }) => r.ackId) });
    }
    expect(got.size).toBeGreaterThan(0);
  }, 90_000);
});

describe("a data dir removed under the running server", () => {
  test("the next write is UNAVAILABLE saying so, logged; nothing is answered into a deleted file", async () => {
    const dir = tempDir("vanish");
    const server = await startWithTopic(dir);
    await publishBatch();
    rmSync(dir, { recursive: true, force: true });
    await expectUnavailable(publishBatch(), "is gone while it ran");
    await server.printed("Restart the emulator");
    // It stays refused (no probe can bring a deleted file back), and the server stays up.
    await Bun.sleep(1100);
    await expectUnavailable(publishBatch());
    await expectUnavailable(c!.call(c!.publisher, "CreateTopic", { name: `${TOPIC}-2` }));
    expect(server.exitCode()).toBe(null);
  }, 60_000);
});

describe("a database file cut short under the running server", () => {
  test("the next write is UNAVAILABLE saying so, logged; nothing is answered into the damaged file", async () => {
    const dir = tempDir("cut");
    const server = await startWithTopic(dir);
    for (let i = 0; i < 5; i++) await publishBatch();
    truncateSync(join(dir, "pubsub-emulator.sqlite"), 0);
    await expectUnavailable(publishBatch(), "was cut short");
    await server.printed("The data dir is damaged");
    await expectUnavailable(c!.call(c!.subscriber, "CreateSubscription", { name: `${SUB}-2`, topic: TOPIC }));
    // Deliveries go on from memory.
    const pulled = await c!.call(c!.subscriber, "Pull", { subscription: SUB, maxMessages: 10, returnImmediately: true });
    expect(pulled.receivedMessages.length).toBe(10);
    expect(server.exitCode()).toBe(null);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe("a read-only data dir", () => {
  test("an existing data dir mounted read-only stops the start, naming it", async () => {
    const dir = tempDir("rosrc");
    try {
      const first = await startWithTopic(dir);
      c!.close();
      c = null;
      expect(await first.stop()).toBe(0);
      running.splice(0);
      const ro = readOnlyBind(dir);
      const err = await spawnServer(["--data-dir", ro]).then(
        (s) => (running.push(s), null),
        (e: Error) => e.message,
      );
      expect(err).toContain("exited with code 1");
      expect(err).toContain(ro);
      expect(err).toMatch(/read-only/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

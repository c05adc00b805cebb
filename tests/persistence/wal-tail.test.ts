/**
 * A damaged WAL or database found at start, after a kill -9 (what a power cut or a failing disk
 * leaves): a torn or garbage tail, a truncated WAL, a flipped byte inside it, a truncated database
 * file. The emulator either comes back at the last consistent state — whole batches it had
 * answered, in publish order, never a half-read message — or refuses the data dir at start with
 * a message naming it. Publishes are sequential batches, so a consistent state is a prefix of them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, openSync, readSync, statSync, truncateSync, writeSync, closeSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grpcClients } from "../helpers/raw-grpc.ts";
import { spawnServer, type ServerProcess } from "../helpers/server-process.ts";
import { PROJECT } from "../helpers/emulator.ts";

const TOPIC = `projects/${PROJECT}/topics/wal`;
const SUB = `projects/${PROJECT}/subscriptions/wal`;
const BATCHES = 30;
const PER_BATCH = 50;
const dirs: string[] = [];
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.kill9()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A data dir left by a kill -9 (or a clean stop, the WAL folded in) right after BATCHES answered publishes; returns each batch's ids. */
async function killedAfterPublishing(clean = false): Promise<{ dir: string; batches: string[][] }> {
  const dir = mkdtempSync(join(tmpdir(), "pubsub-wal-"));
  dirs.push(dir);
  const s = await spawnServer(["--data-dir", dir]);
  const c = grpcClients(s.endpoint);
  await c.call(c.publisher, "CreateTopic", { name: TOPIC });
  await c.call(c.subscriber, "CreateSubscription", { name: SUB, topic: TOPIC, ackDeadlineSeconds: 600 });
  const batches: string[][] = [];
  for (let b = 0; b < BATCHES; b++) {
    const messages = Array.from({ length: PER_BATCH }, (_, i) => ({ data: Buffer.from(`batch ${b} message ${i} `.padEnd(2000, "x")) }));
    batches.push((await c.call(c.publisher, "Publish", { topic: TOPIC, messages })).messageIds);
  }
  c.close();
  if (clean) expect(await s.stop()).toBe(0);
  else await s.kill9();
  return { dir, batches };
}

/** Restarts on `dir`: the refusal's text, or every message it serves (drained by Pull, bounded). */
async function restart(dir: string): Promise<string | { id: string; data: string }[]> {
  const s = await spawnServer(["--data-dir", dir]).catch((e: Error) => e.message);
  if (typeof s === "string") return s;
  running.push(s);
  const c = grpcClients(s.endpoint);
  const got: { id: string; data: string }[] = [];
  try {
    for (let i = 0; i < BATCHES * 2 + 5; i++) {
      const res = await c.call(c.subscriber, "Pull", { subscription: SUB, maxMessages: 1000, returnImmediately: true });
      const received = res.receivedMessages ?? [];
      if (received.length === 0) break;
      for (const r of received) got.push({ id: r.message.messageId, data: Buffer.from(r.message.data).toString() });
      await c.call(c.subscriber, "Acknowledge", { subscription: SUB, ackIds: received.map((r: { ackId: string }) => r.ackId) });
    }
  } finally {
    c.close();
  }
  return got;
}

/** Served is the first k answered batches, every message whole; returns k. */
function expectConsistentPrefix(served: { id: string; data: string }[], batches: string[][]): number {
  const ids = new Set(served.map((m) => m.id));
  expect(ids.size).toBe(served.length);
  let k = 0;
  while (k < batches.length && batches[k]!.every((id) => ids.has(id))) k++;
  expect(served.length).toBe(k * PER_BATCH);
  for (const m of served) expect(m.data).toMatch(/^batch \d+ message \d+ x{1980,}$/);
  return k;
}

const wal = (dir: string) => join(dir, "pubsub-emulator.sqlite-wal");
const db = (dir: string) => join(dir, "pubsub-emulator.sqlite");
const REFUSED = /exited with code 1 before its ready line[^]*pubsub-emulator\.sqlite/;

describe("a damaged WAL or database at start", () => {
  test("garbage after the WAL's last frame (a torn write): every answered message comes back", async () => {
    const { dir, batches } = await killedAfterPublishing();
    appendFileSync(wal(dir), Buffer.alloc(3000, 0xa5));
    const served = await restart(dir);
    if (typeof served === "string") throw new Error(served);
    expect(expectConsistentPrefix(served, batches)).toBe(BATCHES);
  }, 60_000);

  test("a WAL cut in the middle of a frame: the last consistent state, or refused", async () => {
    const { dir, batches } = await killedAfterPublishing();
    const size = statSync(wal(dir)).size;
    truncateSync(wal(dir), Math.floor(size * 0.6) + 17);
    const served = await restart(dir);
    if (typeof served === "string") expect(served).toMatch(REFUSED);
    else expectConsistentPrefix(served, batches);
  }, 60_000);

  test("a flipped byte inside the WAL: the frames before it, or refused", async () => {
    const { dir, batches } = await killedAfterPublishing();
    const fd = openSync(wal(dir), "r+");
    const at = Math.floor(statSync(wal(dir)).size / 2);
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, at);
    b[0] = b[0]! ^ 0xff;
    writeSync(fd, b, 0, 1, at);
    closeSync(fd);
    const served = await restart(dir);
    if (typeof served === "string") expect(served).toMatch(REFUSED);
    else expectConsistentPrefix(served, batches);
  }, 60_000);

  test("a database file cut short after a clean stop (no WAL to cover it): refused, naming it", async () => {
    const { dir } = await killedAfterPublishing(true);
    truncateSync(db(dir), Math.floor(statSync(db(dir)).size / 2));
    const served = await restart(dir);
    expect(served).toMatch(REFUSED);
    expect(served).toMatch(/not a readable pubsub-emulator database|damaged/);
  }, 60_000);
});

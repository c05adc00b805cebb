// The store's own cost, in process and at full speed (issue 30 goal 4): a broker on ROOT's code
// (another commit's worktree for an A/B) publishes 1,000 × 1 KiB messages to a topic with two
// subscriptions, each pulls the 1,000 (attempts recorded) and acks them; ROUNDS times after 20
// warm-up rounds. Prints process CPU (every thread: the checkpoint worker's too) and wall time per
// message. MODE: mem (no store) | sqlite (a fresh data dir).
//
//   bun bench/store-micro.ts ROOT mem|sqlite [ROUNDS=200]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const [root, mode, roundsArg] = [process.argv[2], process.argv[3], process.argv[4]];
const { Broker } = await import(join(root, "src/core/broker.ts"));
const { ManualClock } = await import(join(root, "src/core/clock.ts"));
const { SqliteStore } = await import(join(root, "src/persistence/sqlite-store.ts"));
const dir = mkdtempSync(join(tmpdir(), "micro-"));
const store = mode === "mem" ? undefined : SqliteStore.open(dir);
const broker = new Broker({ clock: new ManualClock(Date.now()), store });
const topic = "projects/proj/topics/topic";
const subs = ["projects/proj/subscriptions/sub-a", "projects/proj/subscriptions/sub-b"];
broker.topics.create({ name: topic, labels: {} } as any);
for (const s of subs) broker.subscriptions.create({ name: s, topic, ackDeadlineSeconds: 60 } as any);
const data = new Uint8Array(1024).fill(120);
const ROUNDS = Number(roundsArg ?? 200);
const batch = Array.from({ length: 1000 }, () => ({ data }));
async function round() {
  broker.topics.publish(topic, batch);
  for (const s of subs) {
    const ds = await broker.subscriptions.pull(s, 1000, true).result;
    broker.subscriptions.acknowledge(s, ds.map((d: any) => d.ackId));
  }
}
for (let i = 0; i < 20; i++) await round();
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < ROUNDS; i++) await round();
const ms = performance.now() - t0;
await Bun.sleep(300); // the checkpoint worker's pass after the last commit
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ root, mode, usPerMsg: +((c.user + c.system) / (ROUNDS * 1000)).toFixed(2), wallUsPerMsg: +((ms * 1000) / (ROUNDS * 1000)).toFixed(2) }));
store?.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);

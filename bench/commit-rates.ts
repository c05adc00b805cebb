// Persistence at every rate (issue 30 goal 4): server CPU µs per delivered message in memory and
// with --data-dir, at full speed and paced, for this checkout and (--base DIR) another one, each
// pairing in the same run. Full speed: bench/lib/kind-bench.ts's measure (requests of 1,000 × 4 in
// flight to a topic with one StreamingPull subscription acking everything, until all are acked).
// Paced: the official client publishing 1 KiB messages at --rate msg/s (default batching) to a
// topic whose StreamingPull subscriber acks each, for --seconds; CPU from the server's /metrics.
//
// --windows A,B: this checkout's --data-dir rows once per --commit-window-ms value (a server that
// has that flag: the group-commit experiment, branch store-group-commit); --messages 0 skips the
// full-speed part. --pstest adds Go's pstest (in memory, paced only, CPU from /proc): what a
// server without persistence pays at that rate.
//
//   bun bench/commit-rates.ts [--base DIR] [--messages 50000] [--rate 1000] [--seconds 20] [--rounds 1] [--windows A,B] [--server-arg ARG] [--pstest]
import { PubSub } from "@google-cloud/pubsub";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { arg, cpuMicros, measure, PROJECT, startServer } from "./lib/kind-bench.ts";
import { startServer as startPeer } from "./lib/server.ts";

const N = Number(arg("--messages") ?? 50_000);
const RATE = Number(arg("--rate") ?? 1000);
const SECONDS = Number(arg("--seconds") ?? 20);
const ROUNDS = Number(arg("--rounds") ?? 1);
const BASE = arg("--base");
const WINDOWS = arg("--windows")?.split(",") ?? [];
const EXTRA = process.argv.flatMap((a, i) => (process.argv[i - 1] === "--server-arg" ? [a] : []));
const BODY = Buffer.alloc(1024, "x");

/** Publishes RATE msg/s for SECONDS through the official client; a subscriber acks each. µs of server CPU per message delivered. */
async function paced(target: string, cpu: (target: string) => Promise<number> = cpuMicros): Promise<{ usPerMsg: number; delivered: number }> {
  const pubsub = new PubSub({ projectId: PROJECT, apiEndpoint: target, emulatorMode: true });
  const id = `paced-${Math.random().toString(36).slice(2, 8)}`;
  const [topic] = await pubsub.createTopic(id);
  const [sub] = await topic.createSubscription(`s-${id}`);
  let delivered = 0;
  sub.on("message", (m) => {
    delivered++;
    m.ack();
  });
  const tickMs = 10;
  const perTick = Math.max(1, Math.round((RATE * tickMs) / 1000));
  const ticks = Math.round((SECONDS * 1000) / tickMs);
  const cpu0 = await cpu(target);
  const t0 = performance.now();
  const sends: Promise<string>[] = [];
  for (let i = 0; i < ticks; i++) {
    const wait = t0 + i * tickMs - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    for (let k = 0; k < perTick; k++) sends.push(topic.publishMessage({ data: BODY }));
  }
  await Promise.all(sends);
  const until = Date.now() + 30_000;
  while (delivered < sends.length && Date.now() < until) await Bun.sleep(20);
  // Acks are batched by the client (≤ 100 ms): let the last ones arrive before reading the CPU.
  await Bun.sleep(300);
  const used = (await cpu(target)) - cpu0;
  await sub.close();
  await pubsub.close();
  return { usPerMsg: used / sends.length, delivered };
}

interface Row { code: string; store: string; round: number; fullMsgPerS: number; fullUs: number; pacedUs: number; pacedDelivered: number }
const rows: Row[] = [];
const codes: [string, string | undefined][] = BASE ? [["base", BASE], ["this", undefined]] : [["this", undefined]];
for (let round = 1; round <= ROUNDS; round++) {
  for (const [code, root] of codes) {
    const stores = ["memory", ...(root || !WINDOWS.length ? ["data-dir"] : WINDOWS.map((w) => `data-dir/${w}`))];
    for (const store of stores) {
      const dir = store !== "memory" ? mkdtempSync(join(tmpdir(), "bench-commit-")) : null;
      const window = store.startsWith("data-dir/") ? ["--commit-window-ms", store.slice(9)] : [];
      const server = await startServer([...(dir ? ["--data-dir", dir] : []), ...window, ...EXTRA], root);
      try {
        const full = N > 0 ? await measure(server.target, "pull", {}, BODY, N) : { perSecond: NaN, serverUsPerMsg: NaN };
        const p = await paced(server.target);
        rows.push({ code, store, round, fullMsgPerS: full.perSecond, fullUs: full.serverUsPerMsg, pacedUs: p.usPerMsg, pacedDelivered: p.delivered });
        console.error(JSON.stringify(rows.at(-1)));
      } finally {
        server.stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  if (process.argv.includes("--pstest")) {
    const peer = await startPeer({ kind: "pstest", smol: false, logFile: "/dev/null" });
    try {
      const cpu = async () => (await peer.sample()).cpuMicros ?? NaN;
      const p = await paced(peer.target, cpu);
      rows.push({ code: "pstest", store: "memory", round, fullMsgPerS: NaN, fullUs: NaN, pacedUs: p.usPerMsg, pacedDelivered: p.delivered });
      console.error(JSON.stringify(rows.at(-1)));
    } finally {
      await peer.stop();
    }
  }
}

console.log(`commit-rates: full speed ${N} msgs (1 KiB, requests of 1,000 × 4), paced ${RATE} msg/s for ${SECONDS} s; bun ${Bun.version}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}`);
console.log(`${"code".padEnd(5)} ${"round".padStart(5)} ${"store".padEnd(11)} ${"full msg/s".padStart(10)} ${"full µs/msg".padStart(11)} ${"paced µs/msg".padStart(12)} ${"ratio full".padStart(10)} ${"ratio paced".padStart(11)}`);
for (const r of rows) {
  const mem = rows.find((m) => m.code === r.code && m.round === r.round && m.store === "memory")!;
  console.log(
    `${r.code.padEnd(5)} ${String(r.round).padStart(5)} ${r.store.padEnd(11)} ${Math.round(r.fullMsgPerS).toString().padStart(10)} ${r.fullUs.toFixed(1).padStart(11)} ${r.pacedUs.toFixed(1).padStart(12)} ${(r.fullUs / mem.fullUs).toFixed(2).padStart(10)} ${(r.pacedUs / mem.pacedUs).toFixed(2).padStart(11)}`,
  );
}

// What a stalled StreamingPull reader costs the server: an official subscriber (its own process)
// connects and is then stopped with SIGSTOP, so its socket is never read again, while MB of
// messages are published to its topic and a second, healthy subscriber on the same subscription
// acks every one (those leased to the stopped reader come back when their 10 s leases expire).
// The same run without the stopped reader is the baseline; the figure is the difference of the
// server's RSS and heap growth between the two, from before the reader connects to once the
// backlog is gone (what its stopped streams still hold is part of it).
//
// The server runs in this process and every client in a child process of its own, so a full GC
// here (Bun.gc(true)) before each reading leaves only what the server still holds.
//
//   bun bench/stalled-reader.ts [--mb 200] [--size 102400] [--grpc-server raw|lean] [--runs 1]
//                               [--reader official|wide] [--backlog-first]
//
// Prints one JSON line per run and a summary line. Loopback only; every wait is bounded.
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import { join } from "node:path";
import { startEmulator } from "../src/server/emulator.ts";
import { setLogLevel } from "../src/runtime/log.ts";
import type { Config } from "../src/runtime/config.ts";
import { sleep } from "./lib/stats.ts";

process.env.METADATA_SERVER_DETECTION ??= "none";
setLogLevel("silent");

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const MB = Number(opt("--mb", "200"));
const SIZE = Number(opt("--size", "102400"));
const GRPC_SERVER = opt("--grpc-server", "raw") as Config["grpcServer"];
const RUNS = Number(opt("--runs", "1"));
/** official: the official Node client (64 KiB windows); wide: a raw reader with 16 MiB windows. */
const READER = opt("--reader", "official");
/** The whole backlog published before the readers connect (the stopped one first), not while they run. */
const BACKLOG_FIRST = args.includes("--backlog-first");
const N = Math.ceil((MB * 1024 * 1024) / SIZE);

function child(script: string, ...argv: string[]) {
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "lib", script), ...argv], { stdout: "pipe", stderr: "inherit" });
  const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  const dec = new TextDecoder();
  return {
    p,
    /** Resolves once its output contains `what`; false after `ms`. */
    async printed(what: string, ms: number): Promise<boolean> {
      const end = Date.now() + ms;
      while (!text.includes(what)) {
        const left = end - Date.now();
        if (left <= 0) return false;
        const r = await Promise.race([reader.read(), sleep(left).then(() => null)]);
        if (!r || r.done) return text.includes(what);
        text += dec.decode(r.value, { stream: true });
      }
      return true;
    },
    stop() {
      p.kill("SIGKILL");
    },
  };
}

const sample = () => {
  Bun.gc(true);
  const m = process.memoryUsage();
  return { rss: m.rss / 1048576, heap: m.heapUsed / 1048576, buffers: m.arrayBuffers / 1048576 };
};

async function run(stalled: boolean): Promise<{ rssMb: number; heapMb: number; buffersMb: number }> {
  const emu = await startEmulator({ host: "127.0.0.1", port: 0, grpcServer: GRPC_SERVER });
  const port = String(emu.port);
  const admin = new v1.SubscriberClient({ servicePath: "127.0.0.1", port: emu.port, sslCreds: grpc.credentials.createInsecure() });
  const topic = "projects/bench/topics/stalled";
  const sub = "projects/bench/subscriptions/stalled";
  const kids: ReturnType<typeof child>[] = [];
  try {
    await new v1.PublisherClient({ servicePath: "127.0.0.1", port: emu.port, sslCreds: grpc.credentials.createInsecure() }).createTopic({ name: topic });
    await admin.createSubscription({ name: sub, topic, ackDeadlineSeconds: 10 });
    const publishAll = async () => {
      const publisher = child("publisher-child.ts", port, topic, String(N), String(SIZE));
      kids.push(publisher);
      if (!(await publisher.printed("done", 120_000))) throw new Error("publishing did not finish within 120 s");
    };
    const stall = async (prime: boolean) => {
      const reader = child(READER === "wide" ? "wide-reader-child.ts" : "subscriber-child.ts", port, sub);
      kids.push(reader);
      if (prime) {
        // Its streams open and deliver (messages go round-robin with the healthy one's); then it stops reading.
        await sleep(1500);
        kids.push(child("publisher-child.ts", port, topic, "50", String(SIZE)));
      }
      if (!(await reader.printed("got ", 20_000))) throw new Error("the reader got nothing within 20 s");
      reader.p.kill("SIGSTOP");
    };
    let before: ReturnType<typeof sample>;
    if (BACKLOG_FIRST) {
      before = sample();
      await publishAll();
      if (stalled) await stall(false);
      await sleep(500);
      kids.push(child("subscriber-child.ts", port, sub));
    } else {
      kids.push(child("subscriber-child.ts", port, sub));
      await sleep(1500);
      before = sample();
      if (stalled) await stall(true);
      await sleep(500);
      await publishAll();
    }
    // Everything acked (the stopped reader's share once its leases expired), at most 60 s.
    const end = Date.now() + 60_000;
    while (emu.broker.held.heldMessages > 0 && Date.now() < end) await sleep(250);
    if (emu.broker.held.heldMessages > 0) console.error(`still held after 60 s: ${emu.broker.held.heldMessages}`);
    await sleep(1500);
    const after = sample();
    const r = { rssMb: after.rss - before.rss, heapMb: after.heap - before.heap, buffersMb: after.buffers - before.buffers };
    console.log(JSON.stringify({ grpcServer: GRPC_SERVER, reader: READER, backlogFirst: BACKLOG_FIRST, stalled, mb: MB, size: SIZE, rssMb: +r.rssMb.toFixed(2), heapMb: +r.heapMb.toFixed(2), buffersMb: +r.buffersMb.toFixed(2) }));
    return r;
  } finally {
    for (const k of kids) k.stop();
    await admin.close().catch(() => {});
    await emu.stop();
  }
}

const diffs: string[] = [];
for (let i = 0; i < RUNS; i++) {
  const base = await run(false);
  const stalled = await run(true);
  diffs.push(`RSS ${(stalled.rssMb - base.rssMb).toFixed(1)} MB, heap ${(stalled.heapMb - base.heapMb).toFixed(1)} MB, array buffers ${(stalled.buffersMb - base.buffersMb).toFixed(1)} MB`);
}
console.log(`stalled ${READER} reader${BACKLOG_FIRST ? " (backlog first)" : ""} on --grpc-server ${GRPC_SERVER}, ${MB} MB published in ${SIZE}-byte messages, stalled minus baseline: ${diffs.join("; ")}`);
process.exit(0);

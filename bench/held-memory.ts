// Memory per held message: RSS and heap growth of a fresh server while it holds N unacked 1 KiB
// messages, and (mode retain-acked) while it keeps N acked ones for retain_acked_messages.
//
//   bun bench/held-memory.ts [--n 100000] [--root DIR] [--mode unacked|retain-acked|topic-retention]
//
// The server runs as a child (`--root` starts another checkout, e.g. a compare worktree); RSS is
// read from /proc, heap from GET /metrics after the server settles. Publishes go in 1000-message
// requests through the v1 PublisherClient; a retain-acked run pulls and acks every message.
import { v1 } from "@google-cloud/pubsub";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./lib/server.ts";
import { sleep } from "./lib/stats.ts";

process.env.METADATA_SERVER_DETECTION ??= "none";

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const N = Number(opt("--n", "100000"));
const mode = opt("--mode", "unacked");
const root = opt("--root", "");

const server = await startServer({ kind: "ours", smol: false, logFile: join(mkdtempSync(join(tmpdir(), "held-")), "server.log"), ...(root ? { root } : {}) });
const [host, port] = server.target.split(":");
const clientOpts = { servicePath: host, port: Number(port), sslCreds: (await import("@grpc/grpc-js")).credentials.createInsecure() };
const pub = new v1.PublisherClient(clientOpts);
const subc = new v1.SubscriberClient(clientOpts);
const topic = `projects/bench/topics/held`;
const sub = `projects/bench/subscriptions/held`;

try {
  await pub.createTopic({ name: topic, ...(mode === "topic-retention" ? { messageRetentionDuration: { seconds: 86400 } } : {}) });
  await subc.createSubscription({ name: sub, topic, ...(mode === "retain-acked" ? { retainAckedMessages: true } : {}) });
  if (mode === "topic-retention") await subc.deleteSubscription({ subscription: sub });
  const metrics = async () => (await (await fetch(`http://${server.target}/metrics.json`)).json()) as Record<string, number>;
  await sleep(1000);
  const before = await server.sample();
  const heapBefore = (await metrics()).heapUsedBytes;
  const data = Buffer.alloc(1024, 7);
  for (let sent = 0; sent < N; sent += 1000) {
    const n = Math.min(1000, N - sent);
    await pub.publish({ topic, messages: Array.from({ length: n }, () => ({ data })) });
  }
  if (mode === "retain-acked") {
    for (let got = 0; got < N; ) {
      const [res] = await subc.pull({ subscription: sub, maxMessages: 1000, returnImmediately: true });
      const ids = (res.receivedMessages ?? []).map((r) => r.ackId!);
      if (ids.length === 0) break;
      await subc.acknowledge({ subscription: sub, ackIds: ids });
      got += ids.length;
    }
  }
  await sleep(Number(process.env.SETTLE_MS ?? 2000));
  const after = await server.sample();
  const m = await metrics();
  const rss = (after.rssBytes! - before.rssBytes!) / N;
  const heap = (m.heapUsedBytes - heapBefore) / N;
  const held = m.heldMessages ?? null;
  console.log(JSON.stringify({ mode, n: N, root: root || "working tree", rssBytesPerMessage: Math.round(rss), heapBytesPerMessage: Math.round(heap), heldMessages: held, backlog: m.backlog }));
} finally {
  await pub.close();
  await subc.close();
  await server.stop();
}

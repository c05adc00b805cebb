// Memory per held message: RSS and heap growth of a fresh server while it holds N unacked 1 KiB
// messages, and (mode retain-acked) while it keeps N acked ones for retain_acked_messages; each
// also less the payload (what a held message costs beyond its own data: issue 30 goal 6).
//
//   bun bench/held-memory.ts [--n 100000 | --fill 1.5G] [--root DIR] [--data-dir]
//                            [--mode unacked|retain-acked|topic-retention]
//
// The server runs as a child (`--root` starts another checkout, e.g. a compare worktree); RSS is
// read from /proc, heap from GET /metrics after the server settles. Publishes go in 1000-message
// requests through the v1 PublisherClient; a retain-acked run pulls and acks every message.
// `--fill SIZE` publishes SIZE of payload (1.5G = 1.5 GiB: 1,572,864 messages) under a
// --max-memory that lets it all be held; `--data-dir` runs the server on a fresh scratch data
// directory. The fill stops at --timeout seconds (default 900) and reports what was held by then.
import { v1 } from "@google-cloud/pubsub";
import { mkdtempSync, rmSync } from "node:fs";
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
const SIZE = 1024;
const units: Record<string, number> = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 };
const fill = /^(\d+(?:\.\d+)?)([KMG])$/i.exec(opt("--fill", ""));
if (args.includes("--fill") && !fill) throw new Error("--fill takes a size like 1.5G, 800M or 100000K");
const N = fill ? Math.ceil((Number(fill[1]) * units[fill[2]!.toUpperCase()]!) / SIZE) : Number(opt("--n", "100000"));
const mode = opt("--mode", "unacked");
const root = opt("--root", "");
const dataDir = args.includes("--data-dir");
const deadline = performance.now() + Number(opt("--timeout", "900")) * 1000;

const scratch = mkdtempSync(join(tmpdir(), "held-"));
// The default budget (a share of RAM or the container's limit) may refuse a large fill first.
const serverArgs = [...(dataDir ? ["--data-dir", join(scratch, "data")] : []), ...(fill ? ["--max-memory", `${Math.ceil((N * SIZE * 3) / 2 ** 30) + 1}G`] : [])];
const server = await startServer({ kind: "ours", smol: false, args: serverArgs, logFile: join(scratch, "server.log"), ...(root ? { root } : {}) });
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
  const data = Buffer.alloc(SIZE, 7);
  const t0 = performance.now();
  let sent = 0;
  while (sent < N && performance.now() < deadline) {
    const n = Math.min(1000, N - sent);
    await pub.publish({ topic, messages: Array.from({ length: n }, () => ({ data })) });
    sent += n;
  }
  const fillSeconds = (performance.now() - t0) / 1000;
  if (mode === "retain-acked") {
    for (let got = 0; got < sent && performance.now() < deadline; ) {
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
  const rss = (after.rssBytes! - before.rssBytes!) / sent;
  const heap = (m.heapUsedBytes - heapBefore) / sent;
  const held = m.heldMessages ?? null;
  const mb = (b: number | null) => (b === null ? null : Math.round(b / 2 ** 20));
  console.log(JSON.stringify({
    mode, n: sent, ...(sent < N ? { timedOutAt: N } : {}), store: dataDir ? "data-dir" : "memory", root: root || "working tree",
    rssBytesPerMessage: Math.round(rss), rssBeyondPayload: Math.round(rss - SIZE),
    heapBytesPerMessage: Math.round(heap), heapBeyondPayload: Math.round(heap - SIZE),
    // The peak is what the fill cost before the requests' garbage was collected.
    peakBeyondPayload: Math.round((server.peakRssBytes()! - before.rssBytes!) / sent - SIZE),
    heldMessages: held, backlog: m.backlog, rssMB: { before: mb(before.rssBytes), after: mb(after.rssBytes), peak: mb(server.peakRssBytes()) },
    fillSeconds: Math.round(fillSeconds),
  }));
} finally {
  await pub.close();
  await subc.close();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}

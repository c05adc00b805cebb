// A Confluent Cloud import topic reading a real Kafka-protocol broker (kfake, built by .ci/kfake)
// into a spawned server, at the rate the broker gives (issue 31). Two runs on one server:
//   backlog — N records (256 B values, 16 keys, 4 headers each) produced first, then the import
//             topic created: time until the server has published all N (its /metrics counter);
//   live    — the import topic first, then N records produced in requests of 1,000: time from the
//             first produce until all N are published (what producing costs is in it).
// Both on a server in memory, then both again on one with --data-dir (SQLite store, positions in the
// ledger file). Reports records/s, server CPU µs per record and the server's RSS after each run.
//
//   bun bench/ingest-kafka.ts [--records 100000] [--out bench/results/ingest-kafka]
import { Producer } from "@platformatic/kafka";
import { PubSub } from "@google-cloud/pubsub";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startKfake } from "../tests/ingest/kafka-helpers.ts";
import { arg, PROJECT, startServer } from "./lib/kind-bench.ts";

const N = Number(arg("--records") ?? 100_000);
const OUT = arg("--out") ?? "bench/results/ingest-kafka";
const BATCH = 1000;
const VALUE = Buffer.alloc(256, "v");

interface Run { name: string; records: number; seconds: number; perSecond: number; serverUsPerRecord: number; rssMiB: number; produceSeconds: number }

async function produceAll(addr: string, topic: string): Promise<number> {
  const p = new Producer({ clientId: "bench", bootstrapBrokers: [addr], timeout: 30_000 });
  const t0 = performance.now();
  try {
    for (let i = 0; i < N; i += BATCH) {
      const messages = Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => ({
        topic,
        key: Buffer.from(`key-${(i + j) % 16}`),
        value: VALUE,
        headers: new Map([[Buffer.from("seq"), Buffer.from(String(i + j))], [Buffer.from("a"), Buffer.from("1")], [Buffer.from("b"), Buffer.from("2")], [Buffer.from("c"), Buffer.from("3")]]),
      }));
      await p.send({ messages });
    }
  } finally {
    await p.close();
  }
  return (performance.now() - t0) / 1000;
}

async function figures(target: string): Promise<{ cpu: number; rss: number }> {
  const m = (await (await fetch(`http://${target}/metrics.json`)).json()) as { cpuUserMicros: number; cpuSystemMicros: number; rssBytes: number };
  return { cpu: m.cpuUserMicros + m.cpuSystemMicros, rss: m.rssBytes };
}

async function imported(target: string, topicId: string): Promise<number> {
  const text = await (await fetch(`http://${target}/metrics`)).text();
  const m = new RegExp(`^pubsub_emulator_import_messages_total\\{[^}]*topic="${topicId}"[^}]*\\} (\\d+)`, "m").exec(text);
  return m ? Number(m[1]) : 0;
}

async function run(name: string, target: string, kafkaAddr: string, kafkaTopic: string, produceFirst: boolean): Promise<Run> {
  const pubsub = new PubSub({ projectId: PROJECT, apiEndpoint: target, emulatorMode: true });
  const id = `${name}-${Math.random().toString(36).slice(2, 8)}`;
  const [topic] = await pubsub.createTopic(id);
  await topic.createSubscription(`s-${id}`);
  let produceSeconds = 0;
  if (produceFirst) produceSeconds = await produceAll(kafkaAddr, kafkaTopic);
  const before = await figures(target);
  const t0 = performance.now();
  await topic.setMetadata({
    ingestionDataSourceSettings: { confluentCloud: { bootstrapServer: kafkaAddr, clusterId: "lkc-bench", topic: kafkaTopic, identityPoolId: "pool", gcpServiceAccount: "bench@bench.iam.gserviceaccount.com" } },
  });
  if (!produceFirst) produceSeconds = await produceAll(kafkaAddr, kafkaTopic);
  const until = Date.now() + 600_000;
  while ((await imported(target, id)) < N) {
    if (Date.now() > until) throw new Error(`${name}: not all ${N} records imported within 600 s`);
    await Bun.sleep(20);
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = await figures(target);
  await pubsub.close();
  return { name, records: N, seconds, perSecond: N / seconds, serverUsPerRecord: (after.cpu - before.cpu) / N, rssMiB: after.rss / 2 ** 20, produceSeconds };
}

const kafka = await startKfake({ topics: ["bench-backlog:4", "bench-live:4", "bench-backlog-dd:4", "bench-live-dd:4"] });
const dataDir = mkdtempSync(join(tmpdir(), "bench-ingest-"));
const runs: Run[] = [];
try {
  for (const [store, args, suffix] of [["memory", [], ""], ["data-dir", ["--data-dir", dataDir], "-dd"]] as const) {
    const server = await startServer([...args]);
    try {
      runs.push({ ...(await run("backlog", server.target, kafka.addr, `bench-backlog${suffix}`, true)), name: `backlog/${store}` });
      runs.push({ ...(await run("live", server.target, kafka.addr, `bench-live${suffix}`, false)), name: `live/${store}` });
    } finally {
      server.stop();
    }
  }
} finally {
  await kafka.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const env = { bun: Bun.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "?", records: N, valueBytes: VALUE.length, partitions: 4, keys: 16, date: new Date().toISOString() };
const lines = [
  `ingest-kafka: ${N} records of ${VALUE.length} B (16 keys, 4 headers) from kfake (4 partitions) into one import topic; bun ${env.bun}, ${env.cpus} × ${env.cpu}`,
  `${"run".padEnd(18)} ${"records/s".padStart(10)} ${"seconds".padStart(8)} ${"server µs/rec".padStart(14)} ${"RSS MiB".padStart(8)} ${"produce s".padStart(10)}`,
  ...runs.map((r) => `${r.name.padEnd(18)} ${Math.round(r.perSecond).toString().padStart(10)} ${r.seconds.toFixed(2).padStart(8)} ${r.serverUsPerRecord.toFixed(2).padStart(14)} ${r.rssMiB.toFixed(0).padStart(8)} ${r.produceSeconds.toFixed(2).padStart(10)}`),
  "(backlog: produced first, timed from the import topic's creation; live: timed from the import topic's creation, producing included)",
];
console.log(lines.join("\n"));
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(`${OUT}.json`, JSON.stringify({ env, runs }, null, 2));
writeFileSync(`${OUT}.txt`, lines.join("\n") + "\n");

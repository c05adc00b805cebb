// BigQuery and Bigtable subscriptions beside a pull subscription, in one run on one server:
// publish N messages (requests of 1,000, 4 in flight) to a topic with one subscription of the
// kind, and time until the subscription has acked them all — the pull subscription through the
// official client's StreamingPull (flow control 10,000, acks batched by 1,000), the BigQuery one by rows appended to its --bigquery-dir table
// (fdatasync per batch), the Bigtable one by MutateRows into Google's Bigtable emulator. Reports
// rows/s (messages/s for pull) and server CPU µs per message (publish included, the same for all).
//
//   bun bench/export-kinds.ts [--messages 50000] [--out bench/results/export-kinds]
import { PubSub, v1 } from "@google-cloud/pubsub";
import { Bigtable } from "@google-cloud/bigtable";
import * as grpc from "@grpc/grpc-js";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startBigtableEmulator } from "../tests/kinds/bigtable-emulator.ts";

process.env.METADATA_SERVER_DETECTION ??= "none";
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const N = Number(arg("--messages") ?? 50_000);
const OUT = arg("--out") ?? "bench/results/export-kinds";
const BATCH = 1000;
const IN_FLIGHT = 4;
const PROJECT = "bench";
const BODY = Buffer.from(JSON.stringify({ id: 1, sku: "SKU-1", qty: 3, note: "a 64-byte-ish message body for the bench...." }));

async function startServer(extra: string[]): Promise<{ target: string; stop(): void }> {
  const child = spawn("bun", ["src/main.ts", "--host-port", "127.0.0.1:0", "--log-level", "warn", ...extra], { cwd: join(import.meta.dir, ".."), stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start within 10 s")), 10_000);
    child.stdout!.on("data", (b: Buffer) => {
      const m = /listening on (\d+)/.exec(b.toString());
      if (m) clearTimeout(timer), resolve(m[1]);
    });
  });
  return { target: `127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

const cpuMicros = async (target: string) => {
  const m = (await (await fetch(`http://${target}/metrics.json`)).json()) as { cpuUserMicros: number; cpuSystemMicros: number };
  return m.cpuUserMicros + m.cpuSystemMicros;
};

async function acked(target: string, subId: string): Promise<number> {
  const text = await (await fetch(`http://${target}/metrics`)).text();
  const m = new RegExp(`^pubsub_emulator_acked_messages_total\\{[^}]*subscription="${subId}"[^}]*\\} (\\d+)`, "m").exec(text);
  return m ? Number(m[1]) : 0;
}

interface Result { kind: string; messages: number; seconds: number; perSecond: number; serverUsPerMsg: number }

async function measure(target: string, kind: string, config: Record<string, unknown>): Promise<Result> {
  const [host, port] = target.split(":");
  const publisher = new v1.PublisherClient({ apiEndpoint: host, servicePath: host, port: Number(port), sslCreds: grpc.credentials.createInsecure(), projectId: PROJECT });
  const pubsub = new PubSub({ projectId: PROJECT, apiEndpoint: target, emulatorMode: true });
  const id = `${kind}-${Math.random().toString(36).slice(2, 8)}`;
  const topic = `projects/${PROJECT}/topics/${id}`;
  await publisher.createTopic({ name: topic });
  const [sub] = await pubsub.topic(topic).createSubscription(`s-${id}`, config);
  // The pull side as tuned as the README's streaming figures: wide flow control, batched acks.
  const reader = kind === "pull"
    ? pubsub.subscription(sub.name, { flowControl: { maxMessages: 10_000, allowExcessMessages: false }, batching: { maxMessages: 1000, maxMilliseconds: 10 }, streamingOptions: { maxStreams: 2 } })
    : null;
  reader?.on("message", (m) => m.ack());
  const request = { topic, messages: Array.from({ length: BATCH }, () => ({ data: BODY })) };
  const cpu0 = await cpuMicros(target);
  const start = performance.now();
  let sent = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (sent < N) {
        sent += BATCH;
        await publisher.publish(request);
      }
    }),
  );
  const until = Date.now() + 300_000;
  while ((await acked(target, `s-${id}`)) < sent) {
    if (Date.now() > until) throw new Error(`${kind}: not all ${sent} messages acked within 300 s`);
    await Bun.sleep(20);
  }
  const seconds = (performance.now() - start) / 1000;
  const cpu = (await cpuMicros(target)) - cpu0;
  await reader?.close();
  await pubsub.close();
  await publisher.close();
  return { kind, messages: sent, seconds, perSecond: sent / seconds, serverUsPerMsg: cpu / sent };
}

const dir = mkdtempSync(join(tmpdir(), "bench-bq-"));
mkdirSync(join(dir, PROJECT, "ds"), { recursive: true });
writeFileSync(join(dir, PROJECT, "ds", "rows.schema.json"), JSON.stringify([{ name: "data", type: "STRING" }, { name: "subscription_name", type: "STRING" }, { name: "message_id", type: "STRING" }, { name: "publish_time", type: "TIMESTAMP" }, { name: "attributes", type: "JSON" }]));
const cbt = await startBigtableEmulator();
process.env.BIGTABLE_EMULATOR_HOST = cbt.host;
const admin = new Bigtable({ projectId: PROJECT, metricsEnabled: false });
await admin.instance("bench-inst").createTable("rows", { families: ["data", "pubsub_metadata"] });
await admin.close();
const server = await startServer(["--bigquery-dir", dir, "--bigtable-emulator-host", cbt.host]);
const results: Result[] = [];
try {
  results.push(await measure(server.target, "pull", {}));
  results.push(await measure(server.target, "bigquery", { bigqueryConfig: { table: `${PROJECT}.ds.rows`, writeMetadata: true } }));
  results.push(await measure(server.target, "bigtable", { bigtableConfig: { table: `projects/${PROJECT}/instances/bench-inst/tables/rows`, writeMetadata: true } }));
} finally {
  server.stop();
  await cbt.stop();
  rmSync(dir, { recursive: true, force: true });
}

const env = { bun: Bun.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "?", messages: N, batch: BATCH, inFlight: IN_FLIGHT, bodyBytes: BODY.length, date: new Date().toISOString() };
const lines = [
  `export-kinds: ${N} messages of ${BODY.length} bytes per subscription, publish ${BATCH}/request × ${IN_FLIGHT} in flight; bun ${env.bun}, ${env.cpus} × ${env.cpu}`,
  `${"subscription".padEnd(12)} ${"rows/s".padStart(10)} ${"seconds".padStart(8)} ${"server µs/msg".padStart(14)} ${"vs pull".padStart(8)}`,
  ...results.map((r) => `${r.kind.padEnd(12)} ${Math.round(r.perSecond).toString().padStart(10)} ${r.seconds.toFixed(2).padStart(8)} ${r.serverUsPerMsg.toFixed(2).padStart(14)} ${(r.perSecond / results[0].perSecond).toFixed(2).padStart(8)}`),
  "(pull: messages/s acked through StreamingPull; server µs/msg includes the publish, the same for all three)",
];
console.log(lines.join("\n"));
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(`${OUT}.json`, JSON.stringify({ env, results }, null, 2));
writeFileSync(`${OUT}.txt`, lines.join("\n") + "\n");

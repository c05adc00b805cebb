// BigQuery and Bigtable subscriptions beside a pull subscription, in one run on one server:
// publish N messages (requests of 1,000, 4 in flight) to a topic with one subscription of the
// kind, and time until the subscription has acked them all — the pull subscription through the
// official client's StreamingPull (flow control 10,000, acks batched by 1,000), the BigQuery one by rows appended to its --bigquery-dir table
// (fdatasync per batch), the Bigtable one by MutateRows into Google's Bigtable emulator. Reports
// rows/s (messages/s for pull) and server CPU µs per message (publish included, the same for all).
//
//   bun bench/export-kinds.ts [--messages 50000] [--out bench/results/export-kinds]
import { Bigtable } from "@google-cloud/bigtable";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startBigtableEmulator } from "../tests/kinds/bigtable-emulator.ts";
import { arg, BATCH, IN_FLIGHT, measure as measureKind, PROJECT, startServer, type Result } from "./lib/kind-bench.ts";

const N = Number(arg("--messages") ?? 50_000);
const OUT = arg("--out") ?? "bench/results/export-kinds";
const BODY = Buffer.from(JSON.stringify({ id: 1, sku: "SKU-1", qty: 3, note: "a 64-byte-ish message body for the bench...." }));
const measure = (target: string, kind: string, config: Record<string, unknown>) => measureKind(target, kind, config, BODY, N);

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

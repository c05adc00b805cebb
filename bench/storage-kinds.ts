// Cloud Storage subscriptions beside a pull subscription, in one run on one server (issue 19): N
// messages of 1 KiB each to a pull subscription (the official client's StreamingPull), a Cloud
// Storage one writing text objects and one writing Avro objects (write_metadata) into a
// --storage-dir bucket, max_messages 1,000 (an object per 1,000 messages, written then renamed,
// fdatasync'd, before its messages are acked). Reports msg/s and server CPU µs per message.
//
//   bun bench/storage-kinds.ts [--messages 50000] [--out bench/results/storage-kinds]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { arg, BATCH, IN_FLIGHT, measure, startServer, type Result } from "./lib/kind-bench.ts";

const N = Number(arg("--messages") ?? 50_000);
const OUT = arg("--out") ?? "bench/results/storage-kinds";
const BODY = Buffer.alloc(1024, "x");

const dir = mkdtempSync(join(tmpdir(), "bench-gcs-"));
mkdirSync(join(dir, "bench-bucket"));
const server = await startServer(["--storage-dir", dir]);
const results: Result[] = [];
let objects = 0;
try {
  results.push(await measure(server.target, "pull", {}, BODY, N));
  const gcs = (extra: Record<string, unknown>) => ({ cloudStorageConfig: { bucket: "bench-bucket", maxMessages: 1000, ...extra } });
  results.push(await measure(server.target, "gcs-text", gcs({ filenamePrefix: "text/" }), BODY, N));
  results.push(await measure(server.target, "gcs-avro", gcs({ filenamePrefix: "avro/", avroConfig: { writeMetadata: true } }), BODY, N));
  objects = readdirSync(join(dir, "bench-bucket"), { recursive: true }).length;
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const env = { bun: Bun.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "?", messages: N, batch: BATCH, inFlight: IN_FLIGHT, bodyBytes: BODY.length, objects, date: new Date().toISOString() };
const lines = [
  `storage-kinds: ${N} messages of ${BODY.length} bytes per subscription, publish ${BATCH}/request × ${IN_FLIGHT} in flight; bun ${env.bun}, ${env.cpus} × ${env.cpu}`,
  `${"subscription".padEnd(12)} ${"msg/s".padStart(10)} ${"seconds".padStart(8)} ${"server µs/msg".padStart(14)} ${"vs pull".padStart(8)}`,
  ...results.map((r) => `${r.kind.padEnd(12)} ${Math.round(r.perSecond).toString().padStart(10)} ${r.seconds.toFixed(2).padStart(8)} ${r.serverUsPerMsg.toFixed(2).padStart(14)} ${(r.perSecond / results[0].perSecond).toFixed(2).padStart(8)}`),
  `(pull: acked through StreamingPull; gcs-*: acked once their object of 1,000 is renamed into place; ${objects} entries written; server µs/msg includes the publish)`,
];
console.log(lines.join("\n"));
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(`${OUT}.json`, JSON.stringify({ env, results }, null, 2));
writeFileSync(`${OUT}.txt`, lines.join("\n") + "\n");

/**
 * The compiled binary reads Kafka and Kinesis import topics too: their modules are imported on
 * first use, and what they load (the Kafka client's wasm, inlined through tsconfig's paths; the AWS
 * SDK) must be inside the binary, not beside it in node_modules. Built with package.json's build
 * command into a temporary folder, run from an empty one.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn, spawnSync } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateStreamCommand, KinesisClient, PutRecordCommand } from "@aws-sdk/client-kinesis";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { freePort } from "../helpers/sidecar.ts";
import { confluent, produce, startKfake, type Kfake } from "./kafka-helpers.ts";
import { waitFor } from "../helpers/wait.ts";

const ROOT = join(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "ingest-bin-"));
const binary = join(work, "pubsub-emulator");
let kafka: Kfake;
let kinesalite: ReturnType<typeof spawn>;
let server: ReturnType<typeof spawn>;
let kinesisUrl: string;
let base: string;

beforeAll(async () => {
  const build = (await Bun.file(join(ROOT, "package.json")).json()).scripts.build.replace("dist/pubsub-emulator", binary) as string;
  const r = spawnSync(["sh", "-c", build], { cwd: ROOT, stdout: "pipe", stderr: "pipe", timeout: 180_000 });
  if (r.exitCode !== 0) throw new Error(`build failed: ${r.stderr.toString()}`);
  kafka = await startKfake({ topics: ["bin:1"] });
  const kport = await freePort();
  kinesalite = spawn([process.execPath, join(ROOT, "node_modules/kinesalite/cli.js"), "--port", String(kport), "--createStreamMs", "0"], { stdout: "ignore", stderr: "ignore" });
  kinesisUrl = `http://127.0.0.1:${kport}`;
  const port = await freePort();
  server = spawn([binary, "--host-port", `127.0.0.1:${port}`], { cwd: work, env: { ...process.env, AWS_ENDPOINT_URL_KINESIS: kinesisUrl }, stdout: "ignore", stderr: "ignore" });
  base = `http://127.0.0.1:${port}/v1/projects/bin-project`;
  await waitFor(() => fetch(`http://127.0.0.1:${port}/health`).then((x) => x.ok, () => false), 20_000, "the binary's answer to /health", 50);
  await waitFor(() => fetch(kinesisUrl, { method: "POST" }).then(() => true, () => false), 20_000, "kinesalite to start", 50);
}, 300_000);
afterAll(async () => {
  server?.kill();
  kinesalite?.kill();
  await kafka?.stop();
  rmSync(work, { recursive: true, force: true });
});

const rest = async (method: string, path: string, body: unknown) => {
  const r = await fetch(`${base}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
};

/** An import topic with a subscription (REST), then the first message pulled within 15 s, as data|orderingKey. */
async function importAndPull(id: string, settings: Record<string, unknown>): Promise<string> {
  await rest("PUT", `/topics/${id}`, {});
  await rest("PUT", `/subscriptions/${id}-s`, { topic: `projects/bin-project/topics/${id}` });
  await rest("PATCH", `/topics/${id}`, { topic: { ingestionDataSourceSettings: settings }, updateMask: "ingestionDataSourceSettings" });
  let m: { data: string; orderingKey?: string } | undefined;
  await waitFor(
    async () => {
      const got = (await rest("POST", `/subscriptions/${id}-s:pull`, { maxMessages: 10 })) as { receivedMessages?: { message: { data: string; orderingKey?: string } }[] };
      m = got.receivedMessages?.[0]?.message;
      return m !== undefined;
    },
    15_000,
    `a message ingested into ${id}`,
    100,
  );
  return `${Buffer.from(m!.data, "base64").toString()}|${m!.orderingKey ?? ""}`;
}

test("the binary ingests a Kafka topic", async () => {
  await produce(kafka.addr, "bin", [{ key: "k", value: "from-kafka" }]);
  expect(await importAndPull("kafka-import", confluent(kafka.addr, "bin"))).toBe("from-kafka|k");
}, 30_000);

test("the binary ingests a Kinesis stream", async () => {
  const k = new KinesisClient({ endpoint: kinesisUrl, region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "x" }, requestHandler: new NodeHttpHandler(), maxAttempts: 1 });
  await k.send(new CreateStreamCommand({ StreamName: "bin-stream", ShardCount: 1 }));
  await Bun.sleep(200);
  await k.send(new PutRecordCommand({ StreamName: "bin-stream", PartitionKey: "pk", Data: Buffer.from("from-kinesis") }));
  k.destroy();
  const settings = {
    awsKinesis: {
      streamArn: "arn:aws:kinesis:us-east-1:000000000000:stream/bin-stream",
      consumerArn: "arn:aws:kinesis:us-east-1:000000000000:stream/bin-stream/consumer/c:1",
      awsRoleArn: "arn:aws:iam::000000000000:role/r",
      gcpServiceAccount: "ingest@bin-project.iam.gserviceaccount.com",
    },
  };
  expect(await importAndPull("kinesis-import", settings)).toBe("from-kinesis|pk");
}, 30_000);

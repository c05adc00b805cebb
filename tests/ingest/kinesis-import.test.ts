/**
 * Amazon Kinesis import topics against kinesalite (a Kinesis engine from npm, started here): each
 * record a message, its partition key the ordering key, in order per key, once across a restart
 * with --data-dir; STREAM_NOT_FOUND until the stream exists. KINESIS_PERMISSION_DENIED and
 * CONSUMER_NOT_FOUND, which kinesalite never answers, against a stand-in that answers AWS's errors.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn, type Subprocess } from "bun";
import { join } from "node:path";
import { CreateStreamCommand, DescribeStreamCommand, KinesisClient, PutRecordCommand } from "@aws-sdk/client-kinesis";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { cleanupDataDirs, tempDataDir } from "../helpers/stores.ts";
import { freePort } from "../helpers/sidecar.ts";
import { importTopic, ingestionStates, orderedImport, pullN, pullNothing, rawClients, receiveAround, withRaw } from "./helpers.ts";

const ACCOUNT = "000000000000";
let kinesalite: Subprocess;
let endpoint: string;
let kinesis: KinesisClient;
let emu: TestEmulator;

beforeAll(async () => {
  const port = await freePort();
  const cli = join(import.meta.dir, "../../node_modules/kinesalite/cli.js");
  kinesalite = spawn([process.execPath, cli, "--port", String(port), "--createStreamMs", "0", "--deleteStreamMs", "0"], { stdout: "pipe", stderr: "ignore" });
  endpoint = `http://127.0.0.1:${port}`;
  kinesis = new KinesisClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "x" }, requestHandler: new NodeHttpHandler(), maxAttempts: 1 });
  await waitFor(() => fetch(endpoint, { method: "POST", signal: AbortSignal.timeout(1000) }).then(() => true, () => false), 15_000, "kinesalite to start", 50);
  emu = await startTestEmulator({ kinesisEndpoint: endpoint });
});
afterAll(async () => {
  await emu?.close();
  kinesis?.destroy();
  kinesalite?.kill();
  cleanupDataDirs();
});

async function createStream(name: string, shards: number): Promise<void> {
  await kinesis.send(new CreateStreamCommand({ StreamName: name, ShardCount: shards }));
  await waitFor(async () => (await kinesis.send(new DescribeStreamCommand({ StreamName: name }))).StreamDescription?.StreamStatus === "ACTIVE", 10_000, `stream ${name} ACTIVE`, 50);
}

const put = (stream: string, key: string, data: string) => kinesis.send(new PutRecordCommand({ StreamName: stream, PartitionKey: key, Data: Buffer.from(data) }));
const arn = (stream: string) => `arn:aws:kinesis:us-east-1:${ACCOUNT}:stream/${stream}`;
const settings = (stream: string) => ({
  awsKinesis: {
    streamArn: arn(stream),
    consumerArn: `${arn(stream)}/consumer/pubsub:1`,
    awsRoleArn: `arn:aws:iam::${ACCOUNT}:role/ingest`,
    gcpServiceAccount: "ingest@test-project.iam.gserviceaccount.com",
  },
});

const sourceState = async (name: string) => (await ingestionStates(emu.client(), name, "awsKinesis")).source;

test("records become messages: data → data, partition key → ordering key; in order per key across shards", async () => {
  const stream = unique("s");
  await createStream(stream, 2);
  const keys = ["alpha", "beta", "gamma", "delta"];
  for (let i = 0; i < 20; i++) await put(stream, keys[i % 4], `r${i}`);
  const imported = await orderedImport(emu.client(), settings(stream));
  const { topic, got } = imported;
  await receiveAround(
    imported,
    20,
    async () => {
      for (let i = 20; i < 28; i++) await put(stream, keys[i % 4], `r${i}`);
    },
    28,
  );
  for (const k of keys) {
    const mine = got.filter((m) => m.orderingKey === k).map((m) => Number(m.data.toString().slice(1)));
    expect(mine).toEqual(Array.from({ length: 28 }, (_, i) => i).filter((i) => keys[i % 4] === k));
  }
  expect(await sourceState(topic)).toBe("ACTIVE");
  expect(emu.streams.status(topic)).toMatchObject({ state: "ACTIVE", messages: 28 });
}, 60_000);

test("a stream that does not exist is STREAM_NOT_FOUND until it is created", async () => {
  const stream = unique("later");
  await withRaw(emu, async (raw) => {
    const { topic, sub } = await importTopic(emu.client(), settings(stream));
    await waitFor(async () => (await sourceState(topic.name)) === "STREAM_NOT_FOUND", 10_000, "STREAM_NOT_FOUND", 50);
    await createStream(stream, 1);
    await put(stream, "k", "finally");
    expect((await pullN(raw, sub.name, 1, 15_000)).map((m) => m.data)).toEqual(["finally"]);
    expect(await sourceState(topic.name)).toBe("ACTIVE");
  });
}, 30_000);

test("with --data-dir a restart reads each shard on from where it was: nothing twice", async () => {
  const stream = unique("durable");
  await createStream(stream, 2);
  for (const v of ["a", "b", "c", "d"]) await put(stream, v, v);
  const dataDir = tempDataDir();
  const first = await startTestEmulator({ kinesisEndpoint: endpoint, dataDir });
  const raw = rawClients(first);
  const { sub } = await importTopic(first.client(), settings(stream));
  expect((await pullN(raw, sub.name, 4, 15_000)).map((m) => m.data).sort()).toEqual(["a", "b", "c", "d"]);
  await raw.close();
  await first.close();
  for (const v of ["e", "f"]) await put(stream, v, v);
  const second = await startTestEmulator({ kinesisEndpoint: endpoint, dataDir });
  const raw2 = rawClients(second);
  try {
    expect((await pullN(raw2, sub.name, 2, 15_000)).map((m) => m.data).sort()).toEqual(["e", "f"]);
    await Bun.sleep(1500); // a poll or two more finds nothing
    expect(await pullNothing(raw2, sub.name)).toBe(0);
  } finally {
    await raw2.close();
    await second.close();
  }
}, 60_000);

test("what an AWS endpoint answers sets the state: AccessDenied → KINESIS_PERMISSION_DENIED, no consumer → CONSUMER_NOT_FOUND", async () => {
  let denied = true;
  // A stand-in endpoint: AWS's JSON error shape for what it refuses; a stream with no shards.
  const error = (type: string) => new Response(JSON.stringify({ __type: type, message: "no" }), { status: 400, headers: { "content-type": "application/x-amz-json-1.1", "x-amzn-errortype": type } });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      if (denied) return error("AccessDeniedException");
      if (req.headers.get("x-amz-target")?.endsWith(".ListShards")) return new Response(JSON.stringify({ Shards: [] }), { headers: { "content-type": "application/x-amz-json-1.1" } });
      return error("ResourceNotFoundException");
    },
  });
  const other = await startTestEmulator({ kinesisEndpoint: `http://127.0.0.1:${server.port}` });
  try {
    const { topic } = await importTopic(other.client(), settings("any"));
    await waitFor(() => other.streams.status(topic.name)?.state === "KINESIS_PERMISSION_DENIED", 10_000, "KINESIS_PERMISSION_DENIED", 50);
    denied = false;
    const { topic: t2 } = await importTopic(other.client(), settings("other"));
    await waitFor(() => other.streams.status(t2.name)?.state === "CONSUMER_NOT_FOUND", 10_000, "CONSUMER_NOT_FOUND", 50);
  } finally {
    await other.close();
    server.stop(true);
  }
}, 30_000);

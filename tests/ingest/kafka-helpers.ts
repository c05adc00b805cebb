/**
 * Real Kafka-protocol brokers for the import-topic tests: franz-go's kfake (tests/ingest/kfake/,
 * built by .ci/kfake, which the first use here runs: it builds once, then only prints the path)
 * and Apache Kafka itself (jars from Maven Central, .ci/apache-kafka), each started on free
 * loopback ports, and records produced with @platformatic/kafka.
 */
import { spawn, spawnSync, type Subprocess } from "bun";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Admin, Producer } from "@platformatic/kafka";
import { freePort } from "../helpers/sidecar.ts";
import { waitFor } from "../helpers/wait.ts";

const ROOT = join(import.meta.dir, "../..");
let binary: string | null = null;

/** The kfake binary; builds it on first use (bounded: 15 min, as in CI). */
export function kfakeBinary(): string {
  if (binary) return binary;
  const r = spawnSync(["bash", ".ci/kfake"], { cwd: ROOT, stdout: "pipe", stderr: "pipe", timeout: 900_000 });
  const out = r.stdout.toString();
  const m = /== kfake: (\S+)/.exec(out);
  if (r.exitCode !== 0 || !m) throw new Error(`.ci/kfake failed:\n${out}\n${r.stderr.toString()}`);
  return (binary = m[1]);
}

export interface Kfake {
  readonly addr: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface KfakeOptions {
  port?: number;
  dataDir?: string;
  /** name:partitions */
  topics?: string[];
  /** MECHANISM:user:password: the broker asks for this SASL login */
  sasl?: string;
}

/** Starts a broker and resolves once it listens (bounded: 15 s). */
export async function startKfake(o: KfakeOptions = {}): Promise<Kfake> {
  const port = o.port ?? (await freePort());
  const args = ["-port", String(port)];
  if (o.dataDir) args.push("-data-dir", o.dataDir);
  if (o.sasl) args.push("-sasl", o.sasl);
  for (const t of o.topics ?? []) args.push("-topic", t);
  const proc: Subprocess<"ignore", "pipe", "pipe"> = spawn([kfakeBinary(), ...args], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  const dec = new TextDecoder();
  let text = "";
  const timer = setTimeout(() => proc.kill(), 15_000);
  while (!text.includes("listening")) {
    const { value, done } = await reader.read();
    if (done) {
      clearTimeout(timer);
      throw new Error(`kfake did not start: ${text}${await new Response(proc.stderr).text()}`);
    }
    text += dec.decode(value);
  }
  clearTimeout(timer);
  reader.releaseLock();
  void proc.stdout.pipeTo(new WritableStream()).catch(() => {});
  return {
    addr: `127.0.0.1:${port}`,
    port,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

export interface Rec {
  key?: string;
  value: string;
  headers?: Record<string, string>;
}

/** Produces records (in this order; acks from the leader) to a topic. */
export async function produce(addr: string, topic: string, records: readonly Rec[], partition?: number): Promise<void> {
  // Idempotent: a retried send (a fresh topic whose leader is not elected yet) writes nothing twice.
  const p = new Producer({ clientId: "test-producer", bootstrapBrokers: [addr], retries: 5, timeout: 10_000, idempotent: true });
  try {
    await p.send({
      messages: records.map((r) => ({
        topic,
        ...(partition === undefined ? {} : { partition }),
        key: r.key === undefined ? undefined : Buffer.from(r.key),
        value: Buffer.from(r.value),
        headers: new Map(Object.entries(r.headers ?? {}).map(([k, v]) => [Buffer.from(k), Buffer.from(v)])),
      })),
    });
  } finally {
    await p.close().catch(() => {});
  }
}

export async function createKafkaTopic(addr: string, topic: string, partitions = 1): Promise<void> {
  const a = new Admin({ clientId: "test-admin", bootstrapBrokers: [addr], timeout: 10_000 });
  try {
    await a.createTopics({ topics: [topic], partitions, replicas: 1 });
  } finally {
    await a.close().catch(() => {});
  }
}

/** Import-topic settings of each Kafka kind (the fields the real service requires). */
export const confluent = (bootstrapServer: string, topic: string) => ({
  confluentCloud: { bootstrapServer, clusterId: "lkc-local", topic, identityPoolId: "pool-1", gcpServiceAccount: "ingest@test-project.iam.gserviceaccount.com" },
});
export const msk = (clusterArn: string, topic: string) => ({
  awsMsk: { clusterArn, topic, awsRoleArn: "arn:aws:iam::111111111111:role/ingest", gcpServiceAccount: "ingest@test-project.iam.gserviceaccount.com" },
});

/** Apache Kafka's jars (.ci/apache-kafka fetches them once from Maven Central, then only prints where they are). */
function apacheKafkaLib(): string {
  const r = spawnSync(["bash", ".ci/apache-kafka"], { cwd: ROOT, stdout: "pipe", stderr: "pipe", timeout: 900_000 });
  const m = /== apache-kafka: (\S+)/.exec(r.stdout.toString());
  if (r.exitCode !== 0 || !m) throw new Error(`.ci/apache-kafka failed:\n${r.stdout.toString()}\n${r.stderr.toString()}`);
  return m[1];
}

/**
 * Apache Kafka in KRaft mode, one node (broker and controller) on free loopback ports, its log in a
 * temporary folder: formatted, started, and resolved once its listener answers (bounded: 90 s).
 */
export async function startApacheKafka(): Promise<Kfake> {
  const lib = apacheKafkaLib();
  const dir = mkdtempSync(join(tmpdir(), "apache-kafka-"));
  const [port, controller] = [await freePort(), await freePort()];
  const props = join(dir, "server.properties");
  writeFileSync(
    props,
    [
      "process.roles=broker,controller",
      "node.id=1",
      `controller.quorum.voters=1@127.0.0.1:${controller}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controller}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      "controller.listener.names=CONTROLLER",
      "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
      `log.dirs=${join(dir, "data")}`,
      "offsets.topic.replication.factor=1",
      "transaction.state.log.replication.factor=1",
      "transaction.state.log.min.isr=1",
      "auto.create.topics.enable=false",
      "",
    ].join("\n"),
  );
  const java = ["java", "-Xmx512m", "-cp", `${lib}/*`];
  const clusterId = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
  const format = spawnSync([...java, "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", props, "--standalone"], { stdout: "pipe", stderr: "pipe", timeout: 60_000 });
  if (format.exitCode !== 0) throw new Error(`kafka-storage format failed: ${format.stdout.toString()}${format.stderr.toString()}`);
  const proc = spawn([...java, "kafka.Kafka", props], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  const addr = `127.0.0.1:${port}`;
  const answers = async () => {
    if (proc.exitCode !== null) throw new Error(`Apache Kafka exited with code ${proc.exitCode}`);
    const a = new Admin({ clientId: "probe", bootstrapBrokers: [addr], timeout: 2000, retries: 0 });
    const up = await a.metadata({ topics: [] }).then(() => true, () => false);
    await a.close().catch(() => {});
    return up;
  };
  await waitFor(answers, 90_000, "Apache Kafka to answer", 250).catch((e: Error) => {
    proc.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Apache Kafka did not answer within 90 s: ${e.message}`);
  });
  return {
    addr,
    port,
    async stop() {
      proc.kill("SIGTERM");
      const t = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      await proc.exited;
      clearTimeout(t);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

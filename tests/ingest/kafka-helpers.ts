/**
 * A real Kafka-protocol broker for the import-topic tests: franz-go's kfake (tests/ingest/kfake/,
 * built by .ci/kfake, which the first use here runs: it builds once, then only prints the path),
 * started per test on a free loopback port, and records produced with @platformatic/kafka.
 */
import { spawn, spawnSync, type Subprocess } from "bun";
import { join } from "node:path";
import { Admin, Producer } from "@platformatic/kafka";
import { freePort } from "../kinds/fake-gcs.ts";

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
  /** user:password for SASL/PLAIN */
  saslPlain?: string;
}

/** Starts a broker and resolves once it listens (bounded: 15 s). */
export async function startKfake(o: KfakeOptions = {}): Promise<Kfake> {
  const port = o.port ?? (await freePort());
  const args = ["-port", String(port)];
  if (o.dataDir) args.push("-data-dir", o.dataDir);
  if (o.saslPlain) args.push("-sasl-plain", o.saslPlain);
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
  const p = new Producer({ clientId: "test-producer", bootstrapBrokers: [addr], retries: 3, timeout: 10_000 });
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

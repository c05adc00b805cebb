// Publish msg/s on topics with schema_settings beside a plain topic: what validating each message
// costs. A fresh server (`bun src/main.ts`) per run; the official client's generated
// PublisherClient sends requests of 1,000 ready-made messages, 4 in flight, for --duration
// seconds per topic. Server CPU per message comes from GET /metrics.
//
//   bun bench/schema-publish.ts [--duration 5] [--target host:port]
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import avro from "avsc";
import protobuf from "protobufjs";
import { spawn } from "node:child_process";
import { join } from "node:path";

process.env.METADATA_SERVER_DETECTION ??= "none";
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const DURATION_S = Number(arg("--duration") ?? 5);
const BATCH = 1000;
const IN_FLIGHT = 4;
const PROJECT = "bench";

const AVRO = { type: "record", name: "Order", fields: [{ name: "id", type: "long" }, { name: "sku", type: "string" }, { name: "qty", type: "int" }, { name: "note", type: ["null", "string"], default: null }] };
const PROTO = 'syntax = "proto3"; message Order { int64 id = 1; string sku = 2; int32 qty = 3; string note = 4; }';
const order = (i: number) => ({ id: i, sku: `SKU-${i % 977}`, qty: i % 17, note: null as string | null });
const avroType = avro.Type.forSchema(AVRO as avro.Schema);
const Order = protobuf.parse(PROTO).root.lookupType("Order");

interface Case {
  label: string;
  schema?: { type: "AVRO" | "PROTOCOL_BUFFER"; definition: string; encoding: "JSON" | "BINARY" };
  data(i: number): Buffer;
}

const CASES: Case[] = [
  { label: "Avro, JSON encoding", schema: { type: "AVRO", definition: JSON.stringify(AVRO), encoding: "JSON" }, data: (i) => Buffer.from(avroType.toString(order(i))) },
  { label: "Avro, BINARY encoding", schema: { type: "AVRO", definition: JSON.stringify(AVRO), encoding: "BINARY" }, data: (i) => avroType.toBuffer(order(i)) },
  { label: "Protocol Buffer, JSON encoding", schema: { type: "PROTOCOL_BUFFER", definition: PROTO, encoding: "JSON" }, data: (i) => Buffer.from(JSON.stringify({ ...order(i), note: "" })) },
  { label: "Protocol Buffer, BINARY encoding", schema: { type: "PROTOCOL_BUFFER", definition: PROTO, encoding: "BINARY" }, data: (i) => Buffer.from(Order.encode({ ...order(i), note: "" }).finish()) },
];

async function startServer(): Promise<{ target: string; stop(): void }> {
  const child = spawn("bun", ["src/main.ts", "--host-port", "127.0.0.1:0", "--log-level", "warn"], { cwd: join(import.meta.dir, ".."), stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start within 10 s")), 10_000);
    child.stdout!.on("data", (b: Buffer) => {
      const m = /listening on (\d+)/.exec(b.toString());
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return { target: `127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

async function cpuMicros(target: string): Promise<number> {
  const m = (await (await fetch(`http://${target}/metrics`)).json()) as { cpuUserMicros: number; cpuSystemMicros: number };
  return m.cpuUserMicros + m.cpuSystemMicros;
}

async function measure(c: Case, target: string): Promise<{ msgs: number; rate: number; cpuPerMsgUs: number }> {
  const [host, port] = target.split(":");
  const opts = { apiEndpoint: host, servicePath: host, port: Number(port), sslCreds: grpc.credentials.createInsecure(), projectId: PROJECT };
  const publisher = new v1.PublisherClient(opts);
  const schemas = new v1.SchemaServiceClient(opts);
  const id = `t${Math.random().toString(36).slice(2, 10)}`;
  const topic = `projects/${PROJECT}/topics/${id}`;
  let schemaSettings;
  if (c.schema) {
    const [s] = await schemas.createSchema({ parent: `projects/${PROJECT}`, schemaId: `s${id}`, schema: { type: c.schema.type, definition: c.schema.definition } });
    schemaSettings = { schema: s.name, encoding: c.schema.encoding };
  }
  await publisher.createTopic({ name: topic, schemaSettings });
  const requests = Array.from({ length: 8 }, (_, r) => ({ topic, messages: Array.from({ length: BATCH }, (_, i) => ({ data: c.data(r * BATCH + i) })) }));
  await publisher.publish(requests[0]); // warm the connection and the compiled schema
  const cpu0 = await cpuMicros(target);
  const start = performance.now();
  const until = start + DURATION_S * 1000;
  let msgs = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < until) {
        await publisher.publish(requests[n++ % requests.length]);
        msgs += BATCH;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const cpu = (await cpuMicros(target)) - cpu0;
  await publisher.close();
  await schemas.close();
  return { msgs, rate: msgs / seconds, cpuPerMsgUs: cpu / msgs };
}

const external = arg("--target");
console.log(`schema-publish: ${BATCH} messages a request, ${IN_FLIGHT} in flight, ${DURATION_S} s per topic, ${external ?? "fresh local server per topic"}`);
console.log("Each schema topic is measured beside a plain topic publishing the very same bytes.");
console.log(`${"schema".padEnd(34)} ${"bytes".padStart(5)} ${"plain msg/s".padStart(12)} ${"schema msg/s".padStart(13)} ${"plain µs/msg".padStart(13)} ${"schema µs/msg".padStart(14)}`);
for (const c of CASES) {
  const results = [];
  for (const variant of [{ ...c, schema: undefined }, c]) {
    const server = external ? { target: external, stop() {} } : await startServer();
    try {
      results.push(await measure(variant, server.target));
    } finally {
      server.stop();
    }
  }
  const [plain, schema] = results;
  const cells = [plain.rate, schema.rate].map((r) => Math.round(r).toString());
  console.log(
    `${c.label.padEnd(34)} ${String(c.data(1).length).padStart(5)} ${cells[0].padStart(12)} ${cells[1].padStart(13)} ${plain.cpuPerMsgUs.toFixed(2).padStart(13)} ${schema.cpuPerMsgUs.toFixed(2).padStart(14)}`,
  );
}

// Other clients' latency while each HTTP/2 attack runs against the default server: a well-behaved
// official client (tests/grpc/attacks/bystander.ts, its own process) publishes, pulls and acks in
// a loop; first alone (the baseline), then while one attacker repeats an attack on new
// connections for the same time. Prints p50/p99 of its round trips, the ratio of p99 to the
// baseline's (the goal is ≤ 2×), and the server's CPU and peak RSS. Figures only, never a verdict
// on a loaded host. Loopback only; each attack bounded in time and connections.
//
//   bun bench/h2-attacks.ts [--seconds 5] [--only name,name]
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import { join } from "node:path";
import { Peer, STREAMING_PULL, T, frame, indexed, requestBlock, settings, u32 } from "../tests/helpers/h2-peer.ts";
import { procStats } from "../tests/grpc/attacks/harness.ts";
import { spawnServer } from "../tests/helpers/server-process.ts";

process.env.METADATA_SERVER_DETECTION ??= "none";
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const SECONDS = Number(opt("--seconds", "5"));
const ONLY = opt("--only", "").split(",").filter(Boolean);
const MAX_CONNECTIONS = 200;

const GET_TOPIC = "/google.pubsub.v1.Publisher/GetTopic";
const block = requestBlock(GET_TOPIC);
const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
/** A batch built once (the attacker's own CPU would otherwise colour the figures more). */
const once = (b: Buffer) => () => b;

/** Each attack: bytes for one connection, written in batches until the server ends it. */
const ATTACKS: Record<string, { first?: Buffer; batch: (i: number) => Buffer }> = {
  "rapid reset": { batch: (i) => Buffer.concat(times(500, (k) => Buffer.concat([frame(T.HEADERS, 4, 1 + 2 * (i * 500 + k), block), frame(T.RST_STREAM, 0, 1 + 2 * (i * 500 + k), u32(8))]))) },
  "CONTINUATION flood": { first: frame(T.HEADERS, 0, 1, block), batch: once(Buffer.concat(times(5000, () => frame(T.CONTINUATION, 0, 1)))) },
  "HPACK bomb": { batch: (i) => frame(T.HEADERS, 4, 1 + 2 * i, Buffer.concat([requestBlock(GET_TOPIC, [indexed("x-bomb", "b".repeat(4000))]), Buffer.alloc(15_000, 0xbe)])) },
  "SETTINGS flood": { batch: once(Buffer.concat(times(5000, () => settings([[1, 4096]])))) },
  "PING flood": { batch: once(Buffer.concat(times(5000, () => frame(T.PING, 0, 0, Buffer.alloc(8))))) },
  "empty DATA flood": { first: frame(T.HEADERS, 4, 1, requestBlock(STREAMING_PULL)), batch: once(Buffer.concat(times(5000, () => frame(T.DATA, 0, 1)))) },
  "WINDOW_UPDATE flood": { batch: once(Buffer.concat(times(5000, () => frame(T.WINDOW_UPDATE, 0, 0, u32(1))))) },
};

const server = await spawnServer(["--grpc-server", "raw"]);
const opts = { servicePath: "127.0.0.1", port: server.port, sslCreds: grpc.credentials.createInsecure() };
const topic = "projects/test-project/topics/h2-attacks";
const sub = "projects/test-project/subscriptions/h2-attacks";
await new v1.PublisherClient(opts).createTopic({ name: topic });
await new v1.SubscriberClient(opts).createSubscription({ name: sub, topic });

/** The bystander's round-trip latencies (ms) over `ms`, while `during` runs. */
async function bystander(ms: number, during: (until: number) => Promise<number>): Promise<{ lat: number[]; failed: number; connections: number }> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "../tests/grpc/attacks/bystander.ts"), String(server.port), topic, sub], { stdout: "pipe", stderr: "inherit" });
  const lat: number[] = [];
  let failed = 0;
  let started = 0;
  const read = (async () => {
    let text = "";
    const dec = new TextDecoder();
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>) {
      text += dec.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = text.indexOf("\n")) >= 0) {
        const [kind, at, v] = text.slice(0, nl).split(" ");
        text = text.slice(nl + 1);
        if (!started) continue;
        if (Number(at) < started) continue;
        if (kind === "ok") lat.push(Number(v));
        else failed++;
      }
    }
  })();
  // Connected and warm before the window opens.
  await Bun.sleep(1500);
  started = Date.now();
  const connections = await during(started + ms);
  const left = started + ms - Date.now();
  if (left > 0) await Bun.sleep(left);
  child.kill();
  await child.exited;
  await read;
  return { lat: lat.sort((a, b) => a - b), failed, connections };
}

async function attack(name: string, until: number): Promise<number> {
  const a = ATTACKS[name]!;
  let connections = 0;
  while (Date.now() < until && connections < MAX_CONNECTIONS) {
    connections++;
    const peer = new Peer(server.port, Buffer.concat([frame(T.SETTINGS, 0, 0), a.first ?? Buffer.alloc(0)]), false);
    for (let i = 0; !peer.closed && Date.now() < until && i < 1000; i++) {
      if (!peer.send(a.batch(i))) await peer.drained(Math.max(1, until - Date.now()));
      else await Bun.sleep(0);
    }
    peer.destroy();
  }
  return connections;
}

const pct = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
const base = await bystander(SECONDS * 1000, async () => 0);
const baseP99 = pct(base.lat, 0.99);
console.log(`baseline: ${base.lat.length} round trips, p50 ${pct(base.lat, 0.5).toFixed(1)} ms, p99 ${baseP99.toFixed(1)} ms, ${base.failed} failed`);
console.log("attack                 conns  trips  failed  p50 ms  p99 ms  p99/base  srv CPU ms  srv peak RSS MB");
for (const name of Object.keys(ATTACKS)) {
  if (ONLY.length && !ONLY.includes(name)) continue;
  const before = procStats(server.pid);
  let peak = before.rssMb;
  const sampler = setInterval(() => (peak = Math.max(peak, procStats(server.pid).rssMb)), 50);
  const r = await bystander(SECONDS * 1000, (until) => attack(name, until));
  clearInterval(sampler);
  const cpu = procStats(server.pid).cpuMs - before.cpuMs;
  const p99 = pct(r.lat, 0.99);
  console.log(
    `${name.padEnd(22)} ${String(r.connections).padStart(5)}  ${String(r.lat.length).padStart(5)}  ${String(r.failed).padStart(6)}  ${pct(r.lat, 0.5).toFixed(1).padStart(6)}  ${p99.toFixed(1).padStart(6)}  ${(p99 / baseP99).toFixed(2).padStart(8)}  ${String(cpu).padStart(10)}  ${peak.toFixed(1).padStart(15)}`,
  );
}
await server.stop();
process.exit(0);

// Other clients' latency while each HTTP/2 attack runs against the default server: a well-behaved
// official client (tests/grpc/attacks/bystander.ts, its own process) publishes, pulls and acks in
// a loop; first alone (the baseline), then beside a process that only burns one core (the floor:
// what any busy neighbour costs on this host), then while an attacker (bench/h2-attacker.ts, its
// own process) repeats each attack on new connections for the same time. Prints p50/p99 of the
// round trips, the ratio of p99 to the run's baseline (the goal is ≤ 2×), the server's and the
// attacker's CPU and the server's peak RSS; with --runs N, the medians over the runs. Figures
// only, never a verdict; compare within a run. Loopback only; each attack bounded in time and
// connections.
//
// With --vs DIR a second server runs from another checkout (its src/main.ts; `git archive REV`
// unpacked, node_modules linked), and every row is measured on both, one right after the other,
// so a change is judged against the same moment's load.
//
//   bun bench/h2-attacks.ts [--seconds 5] [--runs 3] [--only name,name] [--vs DIR]
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import { join } from "node:path";
import { procStats } from "../tests/grpc/attacks/harness.ts";
import { spawnServer, type ServerProcess } from "../tests/helpers/server-process.ts";

process.env.METADATA_SERVER_DETECTION ??= "none";
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const SECONDS = Number(opt("--seconds", "5"));
const RUNS = Number(opt("--runs", "1"));
const ONLY = opt("--only", "").split(",").filter(Boolean);
const ATTACKS = ["rapid reset", "CONTINUATION flood", "HPACK bomb", "SETTINGS flood", "PING flood", "empty DATA flood", "WINDOW_UPDATE flood"];
const ROWS = ["burn (floor)", ...ATTACKS.filter((a) => !ONLY.length || ONLY.includes(a))];

const VS = opt("--vs", "");
const topic = "projects/test-project/topics/h2-attacks";
const sub = "projects/test-project/subscriptions/h2-attacks";

/** A server from `root` (its src/main.ts) with the loop-lag probe, the bystander's topic and subscription. */
async function serve(root: string): Promise<ServerProcess> {
  const server = await spawnServer(["--grpc-server", "raw"], { command: [process.execPath, "--preload", join(import.meta.dir, "lib/loop-lag.ts"), join(root, "src/main.ts")] });
  const opts = { servicePath: "127.0.0.1", port: server.port, sslCreds: grpc.credentials.createInsecure() };
  await new v1.PublisherClient(opts).createTopic({ name: topic });
  await new v1.SubscriberClient(opts).createSubscription({ name: sub, topic });
  return server;
}
const servers: [string, ServerProcess][] = [["", await serve(join(import.meta.dir, ".."))]];
if (VS) servers.push(["vs ", await serve(VS)]);

interface Row {
  trips: number;
  failed: number;
  p50: number;
  p99: number;
  connections: number;
  serverCpuMs: number;
  attackerCpuMs: number;
  peakMb: number;
  /** The server's event loop: the longest and the 99th-percentile delay of a 1 ms timer (lib/loop-lag.ts). */
  lagMax: number;
  lagP99: number;
}

/** The server's loop lag since the last call (SIGUSR2 to lib/loop-lag.ts). */
async function loopLag(server: ServerProcess): Promise<{ max: number; p99: number }> {
  const seen = server.output().split("loop-lag").length;
  process.kill(server.pid, "SIGUSR2");
  const end = Date.now() + 5000;
  while (server.output().split("loop-lag").length === seen && Date.now() < end) await Bun.sleep(5);
  const m = [...server.output().matchAll(/loop-lag max (\S+) p99 (\S+)/g)].at(-1);
  return { max: Number(m?.[1]), p99: Number(m?.[2]) };
}

const pct = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
const median = (xs: number[]) => pct([...xs].sort((a, b) => a - b), 0.5);

/** The bystander's round trips over the window, beside `attack` (an attacker name, "burn", or none). */
async function measure(server: ServerProcess, attack: string | null): Promise<Row> {
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
        if (!started || Number(at) < started) continue;
        if (kind === "ok") lat.push(Number(v));
        else failed++;
      }
    }
  })();
  // Connected and warm before the window opens.
  await Bun.sleep(1500);
  const before = procStats(server.pid);
  let peakMb = before.rssMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, procStats(server.pid).rssMb)), 50);
  await loopLag(server);
  started = Date.now();
  let connections = 0;
  let attackerCpuMs = 0;
  if (attack) {
    const name = attack === "burn (floor)" ? "burn" : attack;
    const a = Bun.spawn([process.execPath, join(import.meta.dir, "h2-attacker.ts"), name, String(server.port), String(SECONDS * 1000)], { stdout: "pipe", stderr: "inherit" });
    const out = await new Response(a.stdout).text();
    await a.exited;
    connections = Number(/connections (\d+)/.exec(out)?.[1] ?? NaN);
    const cpu = a.resourceUsage()?.cpuTime;
    attackerCpuMs = cpu ? Math.round(Number(cpu.total) / 1000) : NaN;
  }
  const left = started + SECONDS * 1000 - Date.now();
  if (left > 0) await Bun.sleep(left);
  clearInterval(sampler);
  const lag = await loopLag(server);
  const serverCpuMs = procStats(server.pid).cpuMs - before.cpuMs;
  child.kill();
  await child.exited;
  await read;
  lat.sort((a, b) => a - b);
  return { trips: lat.length, failed, p50: pct(lat, 0.5), p99: pct(lat, 0.99), connections, serverCpuMs, attackerCpuMs, peakMb, lagMax: lag.max, lagP99: lag.p99 };
}

const HEAD = "                           conns  trips  failed  p50 ms  p99 ms  p99/base  srv CPU ms  atk CPU ms  srv peak RSS MB  loop lag p99/max ms";
const line = (name: string, r: Row, ratio: number) =>
  `${name.padEnd(25)} ${String(r.connections).padStart(6)}  ${String(r.trips).padStart(5)}  ${String(r.failed).padStart(6)}  ${r.p50.toFixed(1).padStart(6)}  ${r.p99.toFixed(1).padStart(6)}  ${ratio.toFixed(2).padStart(8)}  ${String(r.serverCpuMs).padStart(10)}  ${String(r.attackerCpuMs).padStart(10)}  ${r.peakMb.toFixed(1).padStart(15)}  ${r.lagP99.toFixed(1).padStart(8)} / ${r.lagMax.toFixed(1)}`;

const results = new Map<string, { row: Row; ratio: number }[]>();
const baselines = new Map<string, Row[]>();
for (let run = 1; run <= RUNS; run++) {
  const base = new Map<string, Row>();
  for (const [tag, server] of servers) {
    const b = await measure(server, null);
    base.set(tag, b);
    baselines.set(tag, [...(baselines.get(tag) ?? []), b]);
    console.log(`run ${run}: ${tag}baseline ${b.trips} round trips, p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms, ${b.failed} failed, server CPU ${b.serverCpuMs} ms, loop lag p99 ${b.lagP99.toFixed(1)} max ${b.lagMax.toFixed(1)} ms`);
  }
  console.log(HEAD);
  for (const name of ROWS) {
    for (const [tag, server] of servers) {
      const row = await measure(server, name);
      const ratio = row.p99 / base.get(tag)!.p99;
      results.set(tag + name, [...(results.get(tag + name) ?? []), { row, ratio }]);
      console.log(line(tag + name, row, ratio));
    }
  }
}
if (RUNS > 1) {
  console.log(`\nmedians of ${RUNS} runs (${SECONDS} s windows): baseline p99 ${[...baselines].map(([tag, bs]) => `${tag}${median(bs.map((b) => b.p99)).toFixed(1)} ms`).join(", ")}`);
  console.log(HEAD);
  for (const [name, rs] of results) {
    const m = (f: (r: Row) => number) => median(rs.map((x) => f(x.row)));
    const row: Row = { trips: m((r) => r.trips), failed: m((r) => r.failed), p50: m((r) => r.p50), p99: m((r) => r.p99), connections: m((r) => r.connections), serverCpuMs: m((r) => r.serverCpuMs), attackerCpuMs: m((r) => r.attackerCpuMs), peakMb: m((r) => r.peakMb), lagMax: m((r) => r.lagMax), lagP99: m((r) => r.lagP99) };
    console.log(line(name, row, median(rs.map((x) => x.ratio))));
  }
}
for (const [, server] of servers) await server.stop();
process.exit(0);

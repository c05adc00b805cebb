/**
 * The lean load generator: drives a server with pre-encoded gRPC requests from several worker
 * processes (bench/lean/grpc.ts), so that what saturates is the server, not the client. Reports
 * msg/s, the server's CPU per message and the client's own (all workers), same window.
 *
 *   bun bench/lean/load.ts publish|e2e [--server ours|reference|pstest | --target host:port]
 *       [--procs 2] [--duration 5] [--warmup 1] [--batch 1000] [--bytes 1024] [--inflight 4]
 *       [--server-wrap "taskset -c 0"] [--client-wrap "taskset -c 1"] [--root DIR] [--server-args "FLAGS"] [--json]
 *
 * publish: each worker keeps `inflight` Publish calls of `batch` messages open on its own topic
 * (no subscription). e2e: the same on a topic with one subscription, read by one StreamingPull
 * per worker that acks every response on the stream; the publisher waits while more than
 * 4 × batch × inflight are unreceived (closed loop). msg/s counts published (publish) or
 * received (e2e) messages in the measured window. This client does no per-message accounting
 * (no loss or duplicate check): the official-client scenarios of bench/run.ts do that.
 */
import { startServer, remoteServer, type ServerHandle } from "../lib/server.ts";
import { connect, createTopicAndSubscription, publishRequest, streamingPull, unary } from "./grpc.ts";

type Mode = "publish" | "e2e";
interface WorkerArgs { mode: Mode; target: string; topic: string; sub: string | null; warmup: number; duration: number; batch: number; bytes: number; inflight: number }
interface WorkerResult { messages: number; cpuMicros: number; seconds: number; errors: number }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function worker(a: WorkerArgs): Promise<WorkerResult> {
  const session = connect(a.target);
  const body = publishRequest(a.topic, a.batch, a.bytes);
  let published = 0;
  let received = 0;
  let errors = 0;
  let measuring = false;
  let counted = 0;
  let stop = false;
  let wake: (() => void) | null = null;
  const closeStream = a.sub
    ? streamingPull(session, a.sub, a.batch * a.inflight * 4, (n) => {
        received += n;
        if (measuring && a.mode === "e2e") counted += n;
        wake?.();
      })
    : () => {};
  const loop = async () => {
    while (!stop) {
      if (a.sub && published - received > a.batch * a.inflight * 4) {
        await new Promise<void>((r) => (wake = r));
        wake = null;
        continue;
      }
      try {
        await unary(session, "/google.pubsub.v1.Publisher/Publish", body);
        published += a.batch;
        if (measuring && a.mode === "publish") counted += a.batch;
      } catch {
        errors++;
        await sleep(10);
      }
    }
  };
  const loops = Array.from({ length: a.inflight }, loop);
  await sleep(a.warmup * 1000);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  measuring = true;
  await sleep(a.duration * 1000);
  measuring = false;
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  (wake as (() => void) | null)?.();
  await Promise.race([Promise.all(loops), sleep(2000)]);
  closeStream();
  session.destroy();
  return { messages: counted, cpuMicros: cpu.user + cpu.system, seconds, errors };
}

export interface LeanOpts {
  mode: Mode; server?: "ours" | "reference" | "pstest"; target?: string; root?: string;
  procs: number; duration: number; warmup: number; batch: number; bytes: number; inflight: number; json: boolean;
  serverWrap?: string[]; clientWrap: string[];
  /** Extra flags for a server this starts (e.g. --grpc-server lean). */
  serverArgs?: string[];
}
export interface LeanResult {
  mode: Mode; server: string; procs: number; batch: number; bytes: number; inflight: number; msgsPerSec: number;
  serverUsPerMsg: number | null; clientUsPerMsg: number | null; serverCpuPct: number | null; clientCpuPct: number; errors: number;
}

function opts(argv: string[]): LeanOpts {
  const at = (f: string) => { const i = argv.indexOf(f); return i >= 0 ? argv[i + 1] : undefined; };
  const num = (f: string, d: number) => { const v = at(f); const n = v === undefined ? d : Number(v); if (!(n > 0)) usage(`${f} needs a positive number`); return n; };
  const mode = argv[0] as Mode;
  if (mode !== "publish" && mode !== "e2e") usage();
  const server = at("--server");
  if (server && server !== "ours" && server !== "reference" && server !== "pstest") usage("--server ours|reference|pstest");
  return {
    mode, server: server as "ours" | "reference" | "pstest" | undefined, target: at("--target"), root: at("--root"),
    procs: num("--procs", 2), duration: num("--duration", 5), warmup: num("--warmup", 1), batch: num("--batch", 1000),
    bytes: num("--bytes", 1024), inflight: num("--inflight", 4), json: argv.includes("--json"),
    serverWrap: at("--server-wrap")?.split(/\s+/).filter(Boolean), clientWrap: at("--client-wrap")?.split(/\s+/).filter(Boolean) ?? [],
    serverArgs: at("--server-args")?.split(/\s+/).filter(Boolean),
  };
}

function usage(msg?: string): never {
  if (msg) console.error(msg);
  console.error("usage: bun bench/lean/load.ts publish|e2e [--server ours|reference|pstest | --target host:port] [--procs n] [--duration s] [--warmup s] [--batch n] [--bytes n] [--inflight n] [--server-wrap CMD] [--client-wrap CMD] [--root DIR] [--server-args FLAGS] [--json]");
  process.exit(2);
}

export async function run(o: LeanOpts): Promise<LeanResult> {
  if (!o.server && !o.target) o.server = "ours";
  const server: ServerHandle = o.server
    ? await startServer({ kind: o.server, smol: false, root: o.root, wrap: o.serverWrap, args: o.serverArgs, logFile: "/dev/null" })
    : remoteServer(o.target!);
  try {
    const tag = `lean-${process.pid}-${Date.now().toString(36)}`;
    const setup = connect(server.target);
    const pairs = Array.from({ length: o.procs }, (_, i) => ({ topic: `projects/lean/topics/${tag}-${i}`, sub: o.mode === "e2e" ? `projects/lean/subscriptions/${tag}-${i}` : null }));
    for (const p of pairs) await createTopicAndSubscription(setup, p.topic, p.sub);
    setup.destroy();
    const children = pairs.map((p) => {
      const args: WorkerArgs = { mode: o.mode, target: server.target, topic: p.topic, sub: p.sub, warmup: o.warmup, duration: o.duration, batch: o.batch, bytes: o.bytes, inflight: o.inflight };
      return Bun.spawn([...o.clientWrap, process.execPath, import.meta.path, "--worker", JSON.stringify(args)], { stdout: "pipe", stderr: "inherit" });
    });
    await sleep(o.warmup * 1000);
    const s0 = await server.sample();
    const t0 = performance.now();
    await sleep(o.duration * 1000);
    const s1 = await server.sample();
    const wall = (performance.now() - t0) / 1000;
    const results: WorkerResult[] = await Promise.all(children.map(async (c) => JSON.parse((await new Response(c.stdout).text()).trim().split("\n").pop()!)));
    const messages = results.reduce((s, r) => s + r.messages, 0);
    const seconds = Math.max(...results.map((r) => r.seconds));
    const clientCpu = results.reduce((s, r) => s + r.cpuMicros, 0);
    const serverCpu = s0.cpuMicros != null && s1.cpuMicros != null ? s1.cpuMicros - s0.cpuMicros : null;
    // The server's CPU window is the parent's; scale it to the workers' message window.
    const serverUs = serverCpu == null || !messages ? null : serverCpu / ((messages / seconds) * wall);
    const out: LeanResult = {
      mode: o.mode, server: o.server ?? o.target!, procs: o.procs, batch: o.batch, bytes: o.bytes, inflight: o.inflight,
      msgsPerSec: messages / seconds, serverUsPerMsg: serverUs, clientUsPerMsg: messages ? clientCpu / messages : null,
      serverCpuPct: serverCpu == null ? null : serverCpu / 1e4 / wall, clientCpuPct: clientCpu / 1e4 / seconds,
      errors: results.reduce((s, r) => s + r.errors, 0),
    };
    if (o.json) console.log(JSON.stringify(out));
    else {
      const f = (v: number | null, d = 2) => (v == null ? "?" : v.toFixed(d));
      console.log(`lean ${out.mode} [${out.server}] ${out.procs} procs × ${o.inflight} in flight × ${o.batch} msgs of ${o.bytes} B: ` +
        `${Math.round(out.msgsPerSec)} msg/s, server ${f(out.serverUsPerMsg)} µs/msg (${f(out.serverCpuPct, 0)} % CPU), ` +
        `client ${f(out.clientUsPerMsg)} µs/msg (${f(out.clientCpuPct, 0)} % CPU), client/server ${out.serverUsPerMsg && out.clientUsPerMsg ? f(out.clientUsPerMsg / out.serverUsPerMsg) : "?"}, errors ${out.errors}`);
    }
    return out;
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  if (argv[0] === "--worker") {
    console.log(JSON.stringify(await worker(JSON.parse(argv[1]!))));
    process.exit(0);
  }
  await run(opts(argv));
  process.exit(0);
}

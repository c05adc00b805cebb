// Held-message memory: what one unacknowledged message costs the server, in RSS.
//
//   bun bench/memory-pressure.ts [--root DIR] [--messages N] [--pinned N] [--subs N] [--max-memory SIZE]
//   bun bench/memory-pressure.ts --cap 256M [--root DIR] [--max-memory SIZE]
//
// held:   one topic, --subs subscriptions nobody reads (default 3); --messages 1 KiB messages
//         (default 100,000) published in batches of 1,000. RSS per held message is the slope
//         of server RSS over messages held (second half of the fill, least squares).
// pinned: one subscription with a filter that takes one message of each 1,000-message batch;
//         --pinned batches (default 400). RSS per held message = (RSS growth − the growth of
//         the same traffic with a filter that takes nothing) / batches: how much of each ~1 MB
//         request one held message keeps alive.
// cap:    the server in a memory cgroup of that size (needs root or a delegated cgroup), one
//         subscription nobody reads, 1,000 × 1 KiB batches until Publish is refused, the kernel
//         kills the server, or twice the cap was accepted: does it refuse work or die?
// --root runs another checkout's src/main.ts (e.g. a `git worktree` of main) for a before/after.
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { ROOT, startServer, type ServerHandle } from "./lib/server.ts";
import { packageDefinition } from "../src/grpc/proto.ts";
import { CGEXEC, makeCgroup, memoryStats, parseBytes, removeCgroup, setMemoryMax } from "./lib/limits.ts";

interface Opts { root: string; messages: number; pinned: number; subs: number; args: string[]; cap: string | null }

function parse(argv: string[]): Opts {
  const o: Opts = { root: ROOT, messages: 100_000, pinned: 400, subs: 3, args: [], cap: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = () => argv[++i] ?? "";
    if (a === "--root") o.root = v();
    else if (a === "--messages") o.messages = Number(v());
    else if (a === "--pinned") o.pinned = Number(v());
    else if (a === "--subs") o.subs = Number(v());
    else if (a === "--max-memory") o.args.push("--max-memory", v());
    else if (a === "--cap") o.cap = v();
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const root = grpc.loadPackageDefinition(packageDefinition) as any;
const PROJECT = "held-memory";
const KIB = Buffer.alloc(1024, 7);

function clients(target: string) {
  const creds = grpc.credentials.createInsecure();
  const opts = { "grpc.max_send_message_length": 64 << 20, "grpc.max_receive_message_length": 64 << 20 };
  const pub = new root.google.pubsub.v1.Publisher(target, creds, opts);
  const sub = new root.google.pubsub.v1.Subscriber(target, creds, opts);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const call = (c: any, m: string, req: object): Promise<any> =>
    new Promise((res, rej) => c[m](req, { deadline: Date.now() + 30_000 }, (e: Error | null, r: unknown) => (e ? rej(e) : res(r))));
  return { pub, sub, call, close: () => (pub.close(), sub.close()) };
}

const rssMB = async (s: ServerHandle) => ((await s.sample()).rssBytes ?? NaN) / 2 ** 20;
const settle = () => new Promise((r) => setTimeout(r, 1000));

async function held(o: Opts, logFile: string): Promise<{ rssStartMB: number; rssEndMB: number; bytesPerMsg: number; slope: number }> {
  const server = await startServer({ kind: "ours", smol: false, root: o.root, args: o.args, logFile });
  const c = clients(server.target);
  try {
    const topic = `projects/${PROJECT}/topics/held`;
    await c.call(c.pub, "CreateTopic", { name: topic });
    for (let i = 0; i < o.subs; i++) await c.call(c.sub, "CreateSubscription", { name: `projects/${PROJECT}/subscriptions/held-${i}`, topic });
    await settle();
    const start = await rssMB(server);
    const pts: [number, number][] = [];
    const batch = Array.from({ length: 1000 }, () => ({ data: KIB }));
    for (let sent = 0; sent < o.messages; ) {
      await c.call(c.pub, "Publish", { topic, messages: batch });
      sent += batch.length;
      if (sent % 10_000 === 0) pts.push([sent, (await server.sample()).rssBytes ?? NaN]);
    }
    await settle();
    const end = await rssMB(server);
    return { rssStartMB: start, rssEndMB: end, bytesPerMsg: ((end - start) * 2 ** 20) / o.messages, slope: slope(pts.slice(Math.floor(pts.length / 2))) };
  } finally {
    c.close();
    await server.stop();
  }
}

async function pinned(o: Opts, logFile: string, filter = "attributes:keep"): Promise<{ rssStartMB: number; rssEndMB: number; bytesPerMsg: number }> {
  const server = await startServer({ kind: "ours", smol: false, root: o.root, args: o.args, logFile });
  const c = clients(server.target);
  try {
    const topic = `projects/${PROJECT}/topics/pinned`;
    await c.call(c.pub, "CreateTopic", { name: topic });
    await c.call(c.sub, "CreateSubscription", { name: `projects/${PROJECT}/subscriptions/pinned`, topic, filter });
    await settle();
    const start = await rssMB(server);
    const batch = Array.from({ length: 1000 }, (_, i) => (i === 0 ? { data: KIB, attributes: { keep: "1" } } : { data: KIB }));
    for (let i = 0; i < o.pinned; i++) await c.call(c.pub, "Publish", { topic, messages: batch });
    await settle();
    const end = await rssMB(server);
    return { rssStartMB: start, rssEndMB: end, bytesPerMsg: ((end - start) * 2 ** 20) / o.pinned };
  } finally {
    c.close();
    await server.stop();
  }
}

async function capped(o: Opts, logFile: string) {
  const cap = parseBytes(o.cap!);
  const cg = cap ? makeCgroup("memory", `held-memory-${process.pid}`) : null;
  if (!cap || !cg) throw new Error(`--cap ${o.cap}: needs a size and a writable memory cgroup`);
  setMemoryMax(cg, cap);
  const server = await startServer({ kind: "ours", smol: false, root: o.root, args: o.args, logFile, wrap: [CGEXEC, cg.dir] });
  const c = clients(server.target);
  let held = 0;
  let outcome = "";
  try {
    const topic = `projects/${PROJECT}/topics/capped`;
    await c.call(c.pub, "CreateTopic", { name: topic });
    await c.call(c.sub, "CreateSubscription", { name: `projects/${PROJECT}/subscriptions/capped`, topic });
    const batch = Array.from({ length: 1000 }, () => ({ data: KIB }));
    while (!outcome) {
      try {
        await c.call(c.pub, "Publish", { topic, messages: batch });
        held += batch.length;
        if (held * 1024 >= 2 * cap) outcome = "twice the cap accepted";
      } catch (e) {
        const err = e as grpc.ServiceError;
        await settle();
        outcome = server.exited() !== null ? `server killed (exit ${server.exited()})` : err.code === grpc.status.RESOURCE_EXHAUSTED ? `refused: ${err.details}` : `error ${err.code}: ${err.details}`;
      }
    }
    const alive = server.exited() === null;
    return { held, outcome, alive, peakRssMB: (server.peakRssBytes() ?? NaN) / 2 ** 20, cgroup: memoryStats(cg) };
  } finally {
    c.close();
    await server.stop();
    removeCgroup(cg);
  }
}

function slope(pts: [number, number][]): number {
  if (pts.length < 2) return NaN;
  const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
  const my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  const sxx = pts.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  const sxy = pts.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
  return sxx > 0 ? sxy / sxx : NaN;
}

if (import.meta.main) {
  const o = parse(process.argv.slice(2));
  const dir = join(ROOT, "bench/results");
  await Bun.write(join(dir, ".keep"), "");
  if (o.cap) {
    const r = await capped(o, join(dir, "held-memory.capped.server.log"));
    console.log(`cap ${o.cap}: ${r.held.toLocaleString("en-US")} × 1 KiB held; ${r.alive ? "server alive" : "server dead"}; peak RSS ${r.peakRssMB.toFixed(0)} MB, cgroup peak ${((r.cgroup.peakBytes ?? NaN) / 2 ** 20).toFixed(0)} MB, OOM kills ${r.cgroup.oomKills ?? "?"}; ${r.outcome}`);
    process.exit(0);
  }
  const h = await held(o, join(dir, "held-memory.held.server.log"));
  console.log(`held: ${o.messages.toLocaleString("en-US")} × 1 KiB, ${o.subs} subscriptions: RSS ${h.rssStartMB.toFixed(0)} → ${h.rssEndMB.toFixed(0)} MB, ≈ ${h.bytesPerMsg.toFixed(0)} B per held message (slope of the second half ${h.slope.toFixed(0)})`);
  const p = await pinned(o, join(dir, "held-memory.pinned.server.log"));
  const c = await pinned(o, join(dir, "held-memory.control.server.log"), "attributes:never");
  const per = (((p.rssEndMB - p.rssStartMB) - (c.rssEndMB - c.rssStartMB)) * 2 ** 20) / o.pinned;
  console.log(`pinned: ${o.pinned} held of ${o.pinned} × 1,000-message batches: RSS ${p.rssStartMB.toFixed(0)} → ${p.rssEndMB.toFixed(0)} MB (same traffic, nothing held: ${c.rssStartMB.toFixed(0)} → ${c.rssEndMB.toFixed(0)} MB), ≈ ${per.toFixed(0)} B per held message`);
}

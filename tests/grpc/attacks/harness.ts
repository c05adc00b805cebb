/**
 * What every HTTP/2 attack test shares: the server as its own process (so its CPU and RSS are
 * its own, read from /proc), a well-behaved official client publishing and pulling while the
 * attack runs, and one printed line of figures per attack. Figures are printed, never asserted
 * as speeds; the tests assert counts, bytes and behaviour.
 */
import { afterAll, beforeAll, expect } from "bun:test";
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT, unique } from "../../helpers/emulator.ts";
import { spawnServer, type ServerProcess } from "../../helpers/server-process.ts";
import { goawayCode, type Peer } from "../../helpers/h2-peer.ts";

export interface Target {
  server: ServerProcess;
  port: number;
  topic: string;
  sub: string;
  publisher: v1.PublisherClient;
  subscriber: v1.SubscriberClient;
  close(): Promise<void>;
}

/** A server process on our own HTTP/2 (whatever PUBSUB_GRPC_SERVER says) with one topic and one subscription, and v1 clients on it. */
export async function startTarget(): Promise<Target> {
  const server = await spawnServer(["--grpc-server", "raw"]);
  const opts = { apiEndpoint: "127.0.0.1", servicePath: "127.0.0.1", port: server.port, sslCreds: grpc.credentials.createInsecure(), projectId: PROJECT };
  const publisher = new v1.PublisherClient(opts);
  const subscriber = new v1.SubscriberClient(opts);
  const topic = `projects/${PROJECT}/topics/${unique("atk")}`;
  const sub = `projects/${PROJECT}/subscriptions/${unique("atk")}`;
  await publisher.createTopic({ name: topic });
  await subscriber.createSubscription({ name: sub, topic, ackDeadlineSeconds: 10 });
  return {
    server,
    port: server.port,
    topic,
    sub,
    publisher,
    subscriber,
    async close() {
      await Promise.all([publisher.close().catch(() => {}), subscriber.close().catch(() => {})]);
      await server.stop();
    },
  };
}

/** The target every test of a file attacks: started before the first, closed after the last. */
export function sharedTarget(): Target {
  let t: Target | null = null;
  beforeAll(async () => {
    t = await startTarget();
  });
  afterAll(() => t?.close());
  const started = (): Target => {
    if (!t) throw new Error("the attack target starts in beforeAll");
    return t;
  };
  return {
    get server() { return started().server; },
    get port() { return started().port; },
    get topic() { return started().topic; },
    get sub() { return started().sub; },
    get publisher() { return started().publisher; },
    get subscriber() { return started().subscriber; },
    close: () => started().close(),
  };
}

/** Resident set and CPU time (user + system) of a process, from /proc. */
export function procStats(pid: number): { rssMb: number; cpuMs: number } {
  const status = readFileSync(`/proc/${pid}/status`, "latin1");
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(rest[11]) + Number(rest[12]);
  return { rssMb: rssKb / 1024, cpuMs: ticks * 10 };
}

interface Bystander {
  /** Resolves once one round trip succeeded (its client connected), at most after 10 s. */
  ready(): Promise<void>;
  /** Stops it; the count, failures and latency percentiles of the round trips started at or after `since` (epoch ms). */
  stop(since: number): Promise<{ ok: number; failed: number; p50: number; p99: number; errors: string[] }>;
}

/** bystander.ts in its own process, publishing and pulling on the target while the attack runs. */
export function bystander(t: Target): Bystander {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "bystander.ts"), String(t.port), t.topic, t.sub], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
  const trips: { at: number; ms: number }[] = [];
  const errors: { at: number; what: string }[] = [];
  const read = (async () => {
    let text = "";
    const dec = new TextDecoder();
    for await (const chunk of child.stdout) {
      text += dec.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = text.indexOf("\n")) >= 0) {
        const [kind, at, ...rest] = text.slice(0, nl).split(" ");
        text = text.slice(nl + 1);
        if (kind === "ok") trips.push({ at: Number(at), ms: Number(rest[0]) });
        else errors.push({ at: Number(at), what: rest.join(" ") });
      }
    }
  })();
  return {
    async ready() {
      const end = Date.now() + 20_000;
      while (trips.length === 0 && Date.now() < end) await Bun.sleep(10);
    },
    async stop(since) {
      child.kill();
      await child.exited;
      await read;
      const sorted = trips.filter((x) => x.at >= since).map((x) => x.ms).sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
      const failed = errors.filter((x) => x.at >= since).map((x) => x.what);
      return { ok: sorted.length, failed: failed.length, p50: at(0.5), p99: at(0.99), errors: failed };
    },
  };
}

export interface Figures {
  cpuMs: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  growthMb: number;
  ok: number;
  failed: number;
  errors: string[];
}

/**
 * Runs `attack` while the bystander works and /proc is sampled; prints one line of figures. The
 * bystander is connected first and runs at least `minBystanderMs` from the attack's start; only
 * its round trips started since count.
 */
export async function underAttack(t: Target, name: string, attack: () => Promise<string>, minBystanderMs = 1000): Promise<Figures> {
  const by = bystander(t);
  await by.ready();
  const before = procStats(t.server.pid);
  let peak = before.rssMb;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, procStats(t.server.pid).rssMb);
    } catch {
      // The process is gone: the test's own assertions say so.
    }
  }, 20);
  const started = Date.now();
  let what: string;
  try {
    what = await attack();
    const left = minBystanderMs - (Date.now() - started);
    if (left > 0) await Bun.sleep(left);
  } finally {
    clearInterval(sampler);
  }
  const b = await by.stop(started);
  const after = procStats(t.server.pid);
  peak = Math.max(peak, after.rssMb);
  const f: Figures = { cpuMs: after.cpuMs - before.cpuMs, rssBeforeMb: before.rssMb, rssPeakMb: peak, growthMb: peak - before.rssMb, ok: b.ok, failed: b.failed, errors: b.errors };
  console.log(
    `[h2 attack] ${name}: ${what}; server CPU ${f.cpuMs} ms, RSS ${before.rssMb.toFixed(1)} → peak ${peak.toFixed(1)} MB (+${f.growthMb.toFixed(1)}); ` +
      `bystander ${b.ok} round trips, ${b.failed} failed, p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms (loaded shared host)`,
  );
  return f;
}

/** The attack cost the server less than `growthMb` of resident memory and the bystander no round trip. */
export function expectUnharmed(f: Figures, growthMb = 64) {
  expect(f.growthMb).toBeLessThan(growthMb);
  expect(f.failed).toBe(0);
}

/** The GOAWAY code `peer` is sent within 10 s (-1: none); the peer is destroyed after. */
export async function goawayOf(peer: Peer): Promise<number> {
  const code = goawayCode(await peer.goaway(10_000));
  peer.destroy();
  return code;
}

/** Writes `batch(i)` for i = 0, 1, … until `count` frames are written, the socket closes or `ms` pass; the frames written. */
export async function flood(peer: Peer, batch: (i: number) => Buffer, perBatch: number, count: number, ms = 15_000): Promise<number> {
  const end = Date.now() + ms;
  let sent = 0;
  for (let i = 0; sent < count && !peer.closed && Date.now() < end; i++) {
    const ok = peer.send(batch(i));
    sent += perBatch;
    // Yields after each batch: the bystander shares this process and must not wait on the attacker.
    if (!ok) await peer.drained(Math.max(1, end - Date.now()));
    else await Bun.sleep(0);
  }
  return sent;
}

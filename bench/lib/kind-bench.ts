// One delivery kind timed beside another on one server: publish N messages (requests of 1,000, 4 in
// flight) to a topic with one subscription of the kind, and time until that subscription has acked
// them all (read from /metrics); server CPU µs per message over that window (publish included).
// Used by bench/export-kinds.ts and bench/storage-kinds.ts.
import { PubSub, v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";
import { spawn } from "node:child_process";
import { join } from "node:path";

process.env.METADATA_SERVER_DETECTION ??= "none";
export const BATCH = 1000;
export const IN_FLIGHT = 4;
export const PROJECT = "bench";

export const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** `root`: the checkout whose src/main.ts runs (another commit's worktree for an A/B); this one by default. */
export async function startServer(extra: string[], root = join(import.meta.dir, "../..")): Promise<{ target: string; stop(): void }> {
  const child = spawn("bun", ["src/main.ts", "--host-port", "127.0.0.1:0", "--log-level", "warn", ...extra], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start within 10 s")), 10_000);
    child.stdout!.on("data", (b: Buffer) => {
      const m = /listening on (\d+)/.exec(b.toString());
      if (m) clearTimeout(timer), resolve(m[1]);
    });
  });
  return { target: `127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

export const cpuMicros = async (target: string) => {
  const m = (await (await fetch(`http://${target}/metrics.json`)).json()) as { cpuUserMicros: number; cpuSystemMicros: number };
  return m.cpuUserMicros + m.cpuSystemMicros;
};

async function acked(target: string, subId: string): Promise<number> {
  const text = await (await fetch(`http://${target}/metrics`)).text();
  const m = new RegExp(`^pubsub_emulator_acked_messages_total\\{[^}]*subscription="${subId}"[^}]*\\} (\\d+)`, "m").exec(text);
  return m ? Number(m[1]) : 0;
}

export interface Result { kind: string; messages: number; seconds: number; perSecond: number; serverUsPerMsg: number }

export async function measure(target: string, kind: string, config: Record<string, unknown>, body: Buffer, n: number): Promise<Result> {
  const [host, port] = target.split(":");
  const publisher = new v1.PublisherClient({ apiEndpoint: host, servicePath: host, port: Number(port), sslCreds: grpc.credentials.createInsecure(), projectId: PROJECT });
  const pubsub = new PubSub({ projectId: PROJECT, apiEndpoint: target, emulatorMode: true });
  const id = `${kind}-${Math.random().toString(36).slice(2, 8)}`;
  const topic = `projects/${PROJECT}/topics/${id}`;
  await publisher.createTopic({ name: topic });
  const [sub] = await pubsub.topic(topic).createSubscription(`s-${id}`, config);
  // The pull side as tuned as the streaming figures of docs/benchmarks.md: wide flow control, batched acks.
  const reader = kind === "pull"
    ? pubsub.subscription(sub.name, { flowControl: { maxMessages: 10_000, allowExcessMessages: false }, batching: { maxMessages: 1000, maxMilliseconds: 10 }, streamingOptions: { maxStreams: 2 } })
    : null;
  reader?.on("message", (m) => m.ack());
  const request = { topic, messages: Array.from({ length: BATCH }, () => ({ data: body })) };
  const cpu0 = await cpuMicros(target);
  const start = performance.now();
  let sent = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (sent < n) {
        sent += BATCH;
        await publisher.publish(request);
      }
    }),
  );
  const until = Date.now() + 300_000;
  while ((await acked(target, `s-${id}`)) < sent) {
    if (Date.now() > until) throw new Error(`${kind}: not all ${sent} messages acked within 300 s`);
    await Bun.sleep(20);
  }
  const seconds = (performance.now() - start) / 1000;
  const cpu = (await cpuMicros(target)) - cpu0;
  await reader?.close();
  await pubsub.close();
  await publisher.close();
  return { kind, messages: sent, seconds, perSecond: sent / seconds, serverUsPerMsg: cpu / sent };
}

/**
 * A server's life under a memory cap: publish into a subscription nobody reads until refused,
 * drain what was accepted to a subscriber, publish again. Every loop is bounded in count.
 */
import { afterEach, expect } from "bun:test";
import * as grpc from "@grpc/grpc-js";
import { CGEXEC, makeCgroup, removeCgroup, setMemoryMax, type Cgroup } from "../../bench/lib/limits.ts";
import { grpcClients, statusOf, type GrpcClients } from "./raw-grpc.ts";
import { spawnServer, type ServerProcess } from "./server-process.ts";

export interface FillOptions {
  /** Bytes of each message's data (1 KiB unless told). */
  messageBytes?: number;
  /** Messages per Publish (1,000 unless told). */
  batch?: number;
  /** Publishes at most: reaching it unrefused is a failure, not a hang. */
  maxBatches?: number;
  /** Fewest messages the server must take before refusing. */
  minAccepted?: number;
}

export async function fillDrainRefill(server: ServerProcess, capWords: RegExp, o: FillOptions = {}): Promise<{ accepted: number; details: string; clients: GrpcClients }> {
  const { messageBytes = 1024, batch = 1000, maxBatches = 2000, minAccepted = 10_000 } = o;
  const messages = Array.from({ length: batch }, () => ({ data: Buffer.alloc(messageBytes, 7) }));
  const c = grpcClients(server.endpoint);
  const topic = "projects/caps/topics/held";
  const subscription = "projects/caps/subscriptions/held";
  await c.call(c.publisher, "CreateTopic", { name: topic });
  await c.call(c.subscriber, "CreateSubscription", { name: subscription, topic, ackDeadlineSeconds: 600 });

  let accepted = 0;
  let refused: { code: number; details: string } | null = null;
  for (let i = 0; i < maxBatches && !refused; i++) {
    const s = await statusOf(c.call(c.publisher, "Publish", { topic, messages }));
    if (s.code === grpc.status.OK) accepted += batch;
    else refused = s;
  }
  expect(refused?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
  expect(refused?.details).toMatch(capWords);
  if (accepted <= minAccepted) throw new Error(`took ${accepted} messages, then: ${refused?.details}`);
  expect(server.exitCode()).toBe(null);

  // Every accepted message is delivered and acknowledged: nothing acknowledged to the publisher is lost.
  let drained = 0;
  for (let i = 0; i < accepted / 100 && drained < accepted; i++) {
    const res = await c.call(c.subscriber, "Pull", { subscription, maxMessages: 1000, returnImmediately: true });
    const ackIds = (res.receivedMessages ?? []).map((r: { ackId: string }) => r.ackId);
    if (ackIds.length) await c.call(c.subscriber, "Acknowledge", { subscription, ackIds });
    drained += ackIds.length;
  }
  expect(drained).toBe(accepted);

  // Drained, it takes publishes again (the sampled guard may want its next sample and collection).
  let again = { code: -1, details: "" };
  for (let i = 0; i < 40 && again.code !== grpc.status.OK; i++) {
    again = await statusOf(c.call(c.publisher, "Publish", { topic, messages }));
    if (again.code !== grpc.status.OK) await Bun.sleep(250);
  }
  if (again.code !== grpc.status.OK) throw new Error(`drained, publishes are still refused after 10 s: ${again.details}`);
  expect(server.exitCode()).toBe(null);
  return { accepted, details: refused!.details, clients: c };
}

/** A wrap that runs the server under `ulimit <flag>` of `bytes` (-v: RLIMIT_AS, -d: RLIMIT_DATA). */
export const ulimit = (flag: string, bytes: number) => ["sh", "-c", `ulimit ${flag} ${bytes / 1024} && exec "$@"`, "sh"];

/**
 * The servers, clients and cgroups of a describe's tests under caps, each ended after its test:
 * `start` a server under a wrap, `cgroupWrap` a memory cgroup of `bytes` to run one in, `fill` the
 * started server through fillDrainRefill.
 */
export function underCaps(grpcServer: string) {
  let server: ServerProcess | null = null;
  let clients: GrpcClients | null = null;
  let cgroup: Cgroup | null = null;
  afterEach(async () => {
    clients?.close();
    await server?.stop();
    if (cgroup) removeCgroup(cgroup);
    server = clients = cgroup = null;
  });
  return {
    async start(wrap: string[], args: string[] = [], command?: string[]): Promise<ServerProcess> {
      server = await spawnServer(["--grpc-server", grpcServer, "--log-level", "warn", ...args], { wrap, command });
      return server;
    },
    cgroupWrap(name: string, bytes: number): string[] {
      cgroup = makeCgroup("memory", name);
      if (!cgroup) throw new Error("this test needs a writable memory cgroup (v1 or delegated v2): run as root");
      setMemoryMax(cgroup, bytes);
      return [CGEXEC, cgroup.dir];
    },
    async fill(capWords: RegExp, o?: FillOptions) {
      const r = await fillDrainRefill(server!, capWords, o);
      clients = r.clients;
      return r;
    },
  };
}

// REST beside gRPC on the same server: Publish and Pull+Acknowledge of 1 KiB messages in batches
// of 100, through raw clients of each transport (grpc-js with the protos; fetch with keep-alive for
// REST/JSON), LOOPS calls in flight. Publish: for the measured time, to a topic without
// subscriptions. Pull: a backlog published first (over gRPC), then drained with Pull(100) +
// Acknowledge; msg/s = backlog / time to drain it.
import * as grpc from "@grpc/grpc-js";
import { packageDefinition } from "../../src/grpc/proto.ts";
import { measured, uniqueName } from "../lib/flow.ts";
import { finish, row, type Ctx, type Row } from "../lib/report.ts";

export const about = "Publish and Pull(100)+Acknowledge of 1 KiB messages, REST (keep-alive fetch) beside gRPC";

const BATCH = 100;
const LOOPS = 4;
const PAYLOAD = Buffer.alloc(1024, 0x61);
const PROJECT = "projects/bench-rest";

interface Wire {
  publish(topic: string, n: number): Promise<void>;
  pull(sub: string, max: number): Promise<string[]>;
  ack(sub: string, ackIds: string[]): Promise<void>;
  close(): void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

function grpcWire(target: string): Wire {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const v1 = (grpc.loadPackageDefinition(packageDefinition) as any).google.pubsub.v1;
  const creds = grpc.credentials.createInsecure();
  const opts = { "grpc.max_receive_message_length": -1, "grpc.max_send_message_length": -1 };
  const pub = new v1.Publisher(target, creds, opts);
  const sub = new v1.Subscriber(target, creds, opts);
  const call = (c: Obj, method: string, req: Obj) =>
    new Promise<Obj>((resolve, reject) => c[method](req, { deadline: Date.now() + 30_000 }, (e: Error | null, r: Obj) => (e ? reject(e) : resolve(r))));
  const messages = Array.from({ length: BATCH }, () => ({ data: PAYLOAD }));
  return {
    publish: async (topic, n) => void (await call(pub, "Publish", { topic, messages: messages.slice(0, n) })),
    pull: async (subscription, max) =>
      ((await call(sub, "Pull", { subscription, maxMessages: max, returnImmediately: true })).receivedMessages ?? []).map((m: Obj) => m.ackId),
    ack: async (subscription, ackIds) => void (await call(sub, "Acknowledge", { subscription, ackIds })),
    close: () => (pub.close(), sub.close()),
  };
}

function restWire(target: string): Wire {
  const base = `http://${target}/v1/`;
  const headers = { "content-type": "application/json" };
  const post = async (path: string, body: string): Promise<Obj> => {
    const res = await fetch(base + path, { method: "POST", headers, body, keepalive: true });
    const json = (await res.json()) as Obj;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${json.error?.message}`);
    return json;
  };
  const data = PAYLOAD.toString("base64");
  const bodies = new Map<number, string>();
  const body = (n: number) => {
    let b = bodies.get(n);
    if (!b) bodies.set(n, (b = JSON.stringify({ messages: Array.from({ length: n }, () => ({ data })) })));
    return b;
  };
  return {
    publish: async (topic, n) => void (await post(`${topic}:publish`, body(n))),
    pull: async (sub, max) =>
      ((await post(`${sub}:pull`, JSON.stringify({ maxMessages: max, returnImmediately: true }))).receivedMessages ?? []).map((m: Obj) => m.ackId),
    ack: async (sub, ackIds) => void (await post(`${sub}:acknowledge`, JSON.stringify({ ackIds }))),
    close: () => {},
  };
}

const WIRES: Record<string, (target: string) => Wire> = { gRPC: grpcWire, REST: restWire };

/** A fresh topic (and a subscription on it), created over REST. */
async function setup(target: string, withSub: boolean): Promise<[string, string]> {
  const topic = `${PROJECT}/topics/${uniqueName("rest")}`;
  const sub = `${PROJECT}/subscriptions/${uniqueName("rest")}`;
  const put = (name: string, body: Obj) =>
    fetch(`http://${target}/v1/${name}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => {
      if (!r.ok) throw new Error(`create ${name}: HTTP ${r.status}`);
    });
  await put(topic, {});
  if (withSub) await put(sub, { topic });
  return [topic, sub];
}

async function publishRow(ctx: Ctx, transport: string): Promise<Row> {
  const w = WIRES[transport]!(ctx.target);
  const [topic] = await setup(ctx.target, false);
  const warm = ctx.quick ? 1 : 2;
  const meas = ctx.duration ?? (ctx.quick ? 4 : 8);
  let sent = 0;
  let errors = 0;
  const loop = async (until: number, count: boolean) => {
    while (Date.now() < until) {
      try {
        await w.publish(topic, BATCH);
        if (count) sent += BATCH;
      } catch {
        errors++;
      }
    }
  };
  try {
    const warmUntil = Date.now() + warm * 1000;
    await Promise.all(Array.from({ length: LOOPS }, () => loop(warmUntil, false)));
    const [seconds, res] = await measured(ctx, async () => {
      const t0 = performance.now();
      const until = Date.now() + meas * 1000;
      await Promise.all(Array.from({ length: LOOPS }, () => loop(until, true)));
      return (performance.now() - t0) / 1000;
    });
    const r = row({ scenario: "rest", variant: `publish ${transport}`, messages: sent, seconds, resources: res, errors,
      config: { batch: BATCH, loops: LOOPS, payload: "1KB", warmupS: warm, measureS: meas } });
    r.pass = errors === 0;
    r.criterion = "no errors";
    return finish(r);
  } finally {
    w.close();
  }
}

async function pullRow(ctx: Ctx, transport: string): Promise<Row> {
  const w = WIRES[transport]!(ctx.target);
  const filler = grpcWire(ctx.target);
  const [topic, sub] = await setup(ctx.target, true);
  const backlog = ctx.quick ? 40_000 : 150_000;
  try {
    for (let i = 0; i < backlog; i += BATCH * LOOPS) {
      await Promise.all(Array.from({ length: LOOPS }, (_, j) => (i + j * BATCH < backlog ? filler.publish(topic, BATCH) : null)));
    }
    let received = 0;
    let errors = 0;
    const deadline = Date.now() + 120_000;
    const loop = async () => {
      while (received < backlog && Date.now() < deadline) {
        try {
          const ids = await w.pull(sub, BATCH);
          received += ids.length;
          if (ids.length) await w.ack(sub, ids);
        } catch {
          errors++;
        }
      }
    };
    const [seconds, res] = await measured(ctx, async () => {
      const t0 = performance.now();
      await Promise.all(Array.from({ length: LOOPS }, loop));
      return (performance.now() - t0) / 1000;
    });
    const r = row({ scenario: "rest", variant: `pull ${transport}`, messages: received, seconds, resources: res, errors,
      config: { batch: BATCH, loops: LOOPS, payload: "1KB", backlog } });
    r.pass = errors === 0 && received === backlog;
    r.criterion = "the whole backlog pulled and acknowledged, no errors";
    return finish(r);
  } finally {
    filler.close();
    w.close();
  }
}

export async function run(ctx: Ctx): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of ["publish", "pull"] as const) {
    for (const transport of Object.keys(WIRES)) {
      const r = await (kind === "publish" ? publishRow : pullRow)(ctx, transport);
      ctx.log(`rest/${r.variant}: ${Math.round(r.msgsPerSec ?? 0)} msg/s`);
      rows.push(r);
    }
  }
  return rows;
}

// Reference server: the yardstick. A do-nothing google.pubsub.v1 server on grpc-js that
// relays published messages to whatever StreamingPull streams (or Pull calls) are open.
// No leases, no redelivery, acks and modacks ignored. Anything our emulator does on top
// of this is overhead; the gap between the two is what the benchmarks show.
//
//   bun bench/reference/server.ts --host-port 127.0.0.1:0
//
// Published messages are never decoded: each PubsubMessage slice of the request gets
// message_id and publish_time appended (protobuf merges repeated fields) and is framed into
// ReceivedMessage / StreamingPullResponse bytes by hand, so a delivery costs one copy.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { join } from "node:path";

const PROTOS = join(import.meta.dir, "../../protos");
const BACKLOG_CAP = 2_000_000; // messages per subscription held while no stream can take them

// ---------------------------------------------------------------- protobuf framing
function varintLen(n: number): number {
  let l = 1;
  while (n >= 0x80) { n = Math.floor(n / 128); l++; }
  return l;
}
function putVarint(buf: Buffer, off: number, n: number): number {
  while (n >= 0x80) { buf[off++] = (n & 0x7f) | 0x80; n = Math.floor(n / 128); }
  buf[off++] = n;
  return off;
}
function readVarint(b: Buffer, o: number): [number, number] {
  let v = 0, mul = 1, c: number;
  do { c = b[o++]!; v += (c & 0x7f) * mul; mul *= 128; } while (c & 0x80);
  return [v, o];
}
function skipField(b: Buffer, o: number, wt: number): number {
  if (wt === 0) return readVarint(b, o)[1];
  if (wt === 1) return o + 8;
  if (wt === 5) return o + 4;
  if (wt === 2) { const [len, p] = readVarint(b, o); return p + len; }
  throw new Error(`unsupported wire type ${wt}`);
}

/**
 * PublishRequest → topic and the raw PubsubMessage slices, without decoding them.
 * The ordering key (field 5) of the first message is read for ordered routing.
 */
function parsePublish(b: Buffer): { topic: string; msgs: Buffer[]; key: string } {
  let o = 0, topic = "";
  const msgs: Buffer[] = [];
  while (o < b.length) {
    const [tag, p] = readVarint(b, o);
    const f = tag >>> 3, wt = tag & 7;
    if (wt === 2 && (f === 1 || f === 2)) {
      const [len, q] = readVarint(b, p);
      if (f === 1) topic = b.toString("utf8", q, q + len); else msgs.push(b.subarray(q, q + len));
      o = q + len;
    } else o = skipField(b, p, wt);
  }
  let key = "";
  const m = msgs[0];
  if (m) for (let i = 0; i < m.length;) {
    const [tag, p] = readVarint(m, i);
    if (tag === ((5 << 3) | 2)) { const [len, q] = readVarint(m, p); key = m.toString("utf8", q, q + len); break; }
    i = skipField(m, p, tag & 7);
  }
  return { topic, msgs, key };
}

/** The client's PubsubMessage bytes + message_id (3) + publish_time (4): protobuf merges appended fields. */
function stamp(body: Buffer, id: string, secs: number, nanos: number): Buffer {
  const out = Buffer.allocUnsafe(body.length + 2 + id.length + 2 + 2 + varintLen(secs) + varintLen(nanos));
  let o = body.copy(out, 0);
  out[o++] = 0x1a; out[o++] = id.length; o += out.write(id, o, "latin1");
  out[o++] = 0x22; out[o++] = 2 + varintLen(secs) + varintLen(nanos);
  out[o++] = 0x08; o = putVarint(out, o, secs);
  out[o++] = 0x10; o = putVarint(out, o, nanos);
  return out.subarray(0, o);
}

/** PublishResponse { repeated string message_ids = 1 } (ids are ASCII digits). */
function publishResponse(ids: string[]): Buffer {
  let size = 0;
  for (const id of ids) size += 2 + id.length;
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  for (const id of ids) { out[o++] = 0x0a; out[o++] = id.length; o += out.write(id, o, "latin1"); }
  return out;
}

// ---------------------------------------------------------------- state
interface Stream { call: grpc.ServerDuplexStream<any, Buffer>; congested: boolean }
interface Waiter { max: number; done: (msgs: Buffer[]) => void }
interface Sub {
  name: string; topic: string; ordered: boolean; meta: any;
  streams: Stream[]; rr: number; backlog: Buffer[]; waiters: Waiter[]; dropped: number;
}
const topics = new Map<string, { meta: any; subs: Set<Sub> }>();
const subs = new Map<string, Sub>();
let nextId = 1;
let nextAck = 1;

/** One StreamingPullResponse / PullResponse (field 1: ReceivedMessage{ack_id, message}), one exact buffer. */
function response(msgs: Buffer[]): Buffer {
  const ack = nextAck;
  nextAck += msgs.length;
  let size = 0;
  for (let i = 0; i < msgs.length; i++) {
    const a = String(ack + i).length, m = msgs[i]!.length;
    const inner = 2 + a + 1 + varintLen(m) + m;
    size += 1 + varintLen(inner) + inner;
  }
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  for (let i = 0; i < msgs.length; i++) {
    const id = String(ack + i), m = msgs[i]!;
    const inner = 2 + id.length + 1 + varintLen(m.length) + m.length;
    out[o++] = 0x0a; o = putVarint(out, o, inner);
    out[o++] = 0x0a; out[o++] = id.length; o += out.write(id, o, "latin1");
    out[o++] = 0x12; o = putVarint(out, o, m.length);
    o += m.copy(out, o);
  }
  return out;
}

function hashKey(k: string): number {
  let h = 0;
  for (let i = 0; i < k.length; i++) h = (h * 31 + k.charCodeAt(i)) | 0;
  return h >>> 0;
}

function deliver(sub: Sub, msgs: Buffer[], key: string | undefined) {
  if (sub.backlog.length === 0) {
    const n = sub.streams.length;
    if (n > 0) {
      // Ordered subscriptions pin a key to one stream; otherwise round-robin over streams
      // that are not applying backpressure.
      // (An ordered key ignores backpressure: re-routing it could reorder the key.)
      if (sub.ordered && key) {
        const s = sub.streams[hashKey(key) % n]!;
        if (!s.call.write(response(msgs))) s.congested = true;
        return;
      }
      const start = sub.rr++ % n;
      for (let i = 0; i < n; i++) {
        const s = sub.streams[(start + i) % n]!;
        if (s.congested) continue;
        if (!s.call.write(response(msgs))) s.congested = true;
        return;
      }
    } else if (sub.waiters.length > 0) {
      const w = sub.waiters.shift()!;
      w.done(msgs.slice(0, w.max));
      if (msgs.length > w.max) deliver(sub, msgs.slice(w.max), key);
      return;
    }
  }
  for (const m of msgs) {
    if (sub.backlog.length >= BACKLOG_CAP) { sub.dropped++; continue; }
    sub.backlog.push(m);
  }
}

function flush(sub: Sub) {
  while (sub.backlog.length > 0) {
    if (sub.waiters.length > 0 && sub.streams.length === 0) {
      const w = sub.waiters.shift()!;
      w.done(sub.backlog.splice(0, w.max));
      continue;
    }
    const s = sub.streams.find((x) => !x.congested);
    if (!s) return;
    if (!s.call.write(response(sub.backlog.splice(0, 1000)))) s.congested = true;
  }
}

// ---------------------------------------------------------------- handlers
const err = (code: grpc.status, details: string) => ({ code, details, name: "", message: details });
type U = grpc.handleUnaryCall<any, any>;

const publisher: Record<string, U> = {
  CreateTopic(call, cb) {
    const t = call.request;
    if (topics.has(t.name)) return cb(err(grpc.status.ALREADY_EXISTS, "Topic already exists"));
    topics.set(t.name, { meta: t, subs: new Set() });
    cb(null, t);
  },
  GetTopic(call, cb) {
    const t = topics.get(call.request.topic);
    t ? cb(null, t.meta) : cb(err(grpc.status.NOT_FOUND, "Topic not found"));
  },
  DeleteTopic(call, cb) {
    topics.delete(call.request.topic) ? cb(null, {}) : cb(err(grpc.status.NOT_FOUND, "Topic not found"));
  },
  Publish(call, cb) {
    const req = parsePublish(call.request as Buffer);
    const t = topics.get(req.topic);
    if (!t) return cb(err(grpc.status.NOT_FOUND, "Topic not found"));
    const now = Date.now();
    const secs = Math.floor(now / 1000), nanos = (now % 1000) * 1e6;
    const ids: string[] = [];
    const enc: Buffer[] = [];
    const want = t.subs.size > 0;
    for (const m of req.msgs) {
      const id = String(nextId++);
      ids.push(id);
      if (want) enc.push(stamp(m, id, secs, nanos));
    }
    for (const s of t.subs) deliver(s, enc, req.key || undefined);
    cb(null, publishResponse(ids));
  },
};

const subscriber: Record<string, any> = {
  CreateSubscription(call: any, cb: any) {
    const r = call.request;
    if (subs.has(r.name)) return cb(err(grpc.status.ALREADY_EXISTS, "Subscription already exists"));
    const t = topics.get(r.topic);
    if (!t) return cb(err(grpc.status.NOT_FOUND, "Topic not found"));
    const meta = { ...r, ackDeadlineSeconds: r.ackDeadlineSeconds || 10 };
    const s: Sub = { name: r.name, topic: r.topic, ordered: !!r.enableMessageOrdering, meta,
      streams: [], rr: 0, backlog: [], waiters: [], dropped: 0 };
    subs.set(r.name, s);
    t.subs.add(s);
    cb(null, meta);
  },
  GetSubscription(call: any, cb: any) {
    const s = subs.get(call.request.subscription);
    s ? cb(null, s.meta) : cb(err(grpc.status.NOT_FOUND, "Subscription not found"));
  },
  DeleteSubscription(call: any, cb: any) {
    const s = subs.get(call.request.subscription);
    if (!s) return cb(err(grpc.status.NOT_FOUND, "Subscription not found"));
    subs.delete(s.name);
    topics.get(s.topic)?.subs.delete(s);
    for (const st of s.streams) st.call.end();
    for (const w of s.waiters) w.done([]);
    cb(null, {});
  },
  Acknowledge(_call: any, cb: any) { cb(null, {}); },
  ModifyAckDeadline(_call: any, cb: any) { cb(null, {}); },
  Pull(call: any, cb: any) {
    const s = subs.get(call.request.subscription);
    if (!s) return cb(err(grpc.status.NOT_FOUND, "Subscription not found"));
    const max = Math.max(1, call.request.maxMessages || 1);
    if (s.backlog.length > 0) return cb(null, response(s.backlog.splice(0, max)));
    if (call.request.returnImmediately) return cb(null, response([]));
    let timer: ReturnType<typeof setTimeout>;
    const w: Waiter = { max, done: (msgs) => { clearTimeout(timer); cb(null, response(msgs)); } };
    timer = setTimeout(() => { s.waiters = s.waiters.filter((x) => x !== w); cb(null, response([])); }, 1000);
    s.waiters.push(w);
    call.on("cancelled", () => { clearTimeout(timer); s.waiters = s.waiters.filter((x) => x !== w); });
  },
  StreamingPull(call: grpc.ServerDuplexStream<any, Buffer>) {
    let sub: Sub | undefined;
    let me: Stream | undefined;
    const remove = () => {
      if (sub && me) sub.streams = sub.streams.filter((x) => x !== me);
      me = undefined;
    };
    call.on("data", (req: any) => {
      if (sub || !req.subscription) return; // acks / modacks / keepalives: ignored
      sub = subs.get(req.subscription);
      if (!sub) { call.emit("error", err(grpc.status.NOT_FOUND, "Subscription not found")); return; }
      me = { call, congested: false };
      sub.streams.push(me);
      const s = sub, m = me;
      call.on("drain", () => { m.congested = false; flush(s); });
      flush(s);
    });
    call.on("end", () => { remove(); call.end(); });
    call.on("cancelled", remove);
    call.on("error", remove);
    call.on("close", remove);
  },
};

// ---------------------------------------------------------------- boot
const def = protoLoader.loadSync("google/pubsub/v1/pubsub.proto", {
  includeDirs: [PROTOS], keepCase: false, longs: Number, enums: String, defaults: false, oneofs: true,
});
const pkg: any = grpc.loadPackageDefinition(def);
// Hot paths skip protobuf objects: Publish in and out, Pull/StreamingPull out, and the
// (ignored) Acknowledge / ModifyAckDeadline requests.
const passthrough = (b: Buffer) => b;
const empty = Buffer.alloc(0);
const pubSvc = { ...pkg.google.pubsub.v1.Publisher.service };
pubSvc.Publish = { ...pubSvc.Publish, requestDeserialize: passthrough, responseSerialize: passthrough };
const subSvc = { ...pkg.google.pubsub.v1.Subscriber.service };
subSvc.Pull = { ...subSvc.Pull, responseSerialize: passthrough };
subSvc.StreamingPull = { ...subSvc.StreamingPull, responseSerialize: passthrough };
for (const m of ["Acknowledge", "ModifyAckDeadline"]) subSvc[m] = { ...subSvc[m], requestDeserialize: passthrough, responseSerialize: () => empty };

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
}
const hostPort = arg("--host-port", "127.0.0.1:8085");
const server = new grpc.Server({
  "grpc.max_receive_message_length": 64 * 1024 * 1024,
  "grpc.max_send_message_length": -1,
});
server.addService(pubSvc, publisher);
server.addService(subSvc, subscriber);
server.bindAsync(hostPort, grpc.ServerCredentials.createInsecure(), (e, port) => {
  if (e) { console.error(`bind ${hostPort}: ${e.message}`); process.exit(1); }
  console.log(`Server started, listening on ${port}`);
});
const stop = () => server.tryShutdown(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

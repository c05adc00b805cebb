/**
 * The lean load generator's client: gRPC over Bun's node:http2 client with requests encoded by
 * hand once and reused, and responses read only as far as the counting needs (ack ids of a
 * StreamingPullResponse; nothing of a PublishResponse). No protobufjs, no grpc-js, no
 * per-message objects: its CPU per message is a small fraction of the server's.
 */
import * as http2 from "node:http2";

// ---- protobuf writing (only what the requests need) ----
const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n >= 0x80) out.push((n & 0x7f) | 0x80), (n = Math.floor(n / 128));
  out.push(n);
  return out;
};
export const field = (num: number, body: Uint8Array | string): Buffer => {
  const b = typeof body === "string" ? Buffer.from(body) : body;
  return Buffer.concat([Buffer.from([(num << 3) | 2, ...varint(b.length)]), b]);
};
export const intField = (num: number, v: number): Buffer => Buffer.from([num << 3, ...varint(v)]);

/** A gRPC length-prefixed frame around one message. */
export function frame(msg: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + msg.length);
  out[0] = 0;
  out.writeUInt32BE(msg.length, 1);
  out.set(msg, 5);
  return out;
}

/** PublishRequest of `n` messages of `bytes` data and two short attributes, encoded once. */
export function publishRequest(topic: string, n: number, bytes: number): Buffer {
  const data = Buffer.alloc(bytes, 0x61);
  const attrs = Buffer.concat([field(2, Buffer.concat([field(1, "k"), field(2, "lean")])), field(2, Buffer.concat([field(1, "g"), field(2, "1")]))]);
  const msg = field(2, Buffer.concat([field(1, data), attrs]));
  return frame(Buffer.concat([field(1, topic), ...Array.from({ length: n }, () => msg)]));
}

/** Reads varints from `b` at `p`: [value, next position]. */
function readVarint(b: Buffer, p: number): [number, number] {
  let v = 0;
  let mul = 1;
  for (;;) {
    const x = b[p++]!;
    v += (x & 0x7f) * mul;
    if (x < 0x80) return [v, p];
    mul *= 128;
  }
}

/** The ack ids of a StreamingPullResponse (field 1 ReceivedMessage → field 1 ack_id), as raw byte slices. */
export function ackIdsOf(msg: Buffer, out: Buffer[]): void {
  let p = 0;
  while (p < msg.length) {
    const [tag, q] = readVarint(msg, p);
    const wire = tag & 7;
    if (wire === 0) { p = readVarint(msg, q)[1]; continue; }
    if (wire !== 2) throw new Error(`unexpected wire type ${wire}`);
    const [len, start] = readVarint(msg, q);
    if (tag >> 3 === 1) {
      // ReceivedMessage: ack_id is its field 1, written first by servers
      const [t2, r] = readVarint(msg, start);
      if (t2 !== 0x0a) throw new Error("ReceivedMessage without ack_id first");
      const [alen, astart] = readVarint(msg, r);
      out.push(msg.subarray(astart, astart + alen));
    }
    p = start + len;
  }
}

/** Splits a gRPC response body into its messages, across DATA chunks (joined once per message). */
export class FrameReader {
  private parts: Buffer[] = [];
  private have = 0;
  /** Length of the message being gathered (-1: its 5-byte prefix is not complete yet). */
  private need = -1;
  push(chunk: Buffer, onMessage: (m: Buffer) => void): void {
    this.parts.push(chunk);
    this.have += chunk.length;
    for (;;) {
      if (this.need < 0) {
        if (this.have < 5) return;
        const head = this.parts[0]!.length >= 5 ? this.parts[0]! : this.join();
        this.need = head.readUInt32BE(1);
      }
      if (this.have < 5 + this.need) return;
      const all = this.join();
      onMessage(all.subarray(5, 5 + this.need));
      const rest = all.subarray(5 + this.need);
      this.parts = rest.length ? [rest] : [];
      this.have = rest.length;
      this.need = -1;
    }
  }
  private join(): Buffer {
    if (this.parts.length > 1) this.parts = [Buffer.concat(this.parts, this.have)];
    return this.parts[0]!;
  }
}

const HEADERS = { ":method": "POST", "content-type": "application/grpc", te: "trailers" };

/** One unary call; resolves with the response message, rejects on a non-OK status. */
export function unary(session: http2.ClientHttp2Session, path: string, body: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ...HEADERS, ":path": path });
    const reader = new FrameReader();
    let res: Buffer = Buffer.alloc(0);
    let status: string | undefined;
    req.on("response", (h) => (status = h["grpc-status"] as string | undefined));
    req.on("trailers", (t) => (status = (t["grpc-status"] as string | undefined) ?? status));
    req.on("data", (c: Buffer) => reader.push(c, (m) => (res = m)));
    req.on("error", reject);
    req.on("close", () => (status === "0" ? resolve(res) : reject(new Error(`${path}: grpc-status ${status ?? "none"} ${req.rstCode ? `rst ${req.rstCode}` : ""}`))));
    req.end(body);
  });
}

export function connect(target: string): http2.ClientHttp2Session {
  const s = http2.connect(`http://${target}`);
  s.on("error", () => {});
  return s;
}

/** CreateTopic then CreateSubscription (ack deadline 60 s), over gRPC so that pstest takes them too. */
export async function createTopicAndSubscription(session: http2.ClientHttp2Session, topic: string, sub: string | null): Promise<void> {
  await unary(session, "/google.pubsub.v1.Publisher/CreateTopic", frame(field(1, topic)));
  if (sub) await unary(session, "/google.pubsub.v1.Subscriber/CreateSubscription", frame(Buffer.concat([field(1, sub), field(2, topic), intField(5, 60)])));
}

/** A StreamingPull stream: opened with the subscription and flow control, then acks sent back per response. */
export function streamingPull(session: http2.ClientHttp2Session, sub: string, maxOutstanding: number, onCount: (n: number) => void): () => void {
  const req = session.request({ ...HEADERS, ":path": "/google.pubsub.v1.Subscriber/StreamingPull" });
  req.on("error", () => {});
  req.write(frame(Buffer.concat([field(1, sub), intField(5, 60), intField(7, maxOutstanding)])));
  const reader = new FrameReader();
  const ids: Buffer[] = [];
  req.on("data", (c: Buffer) =>
    reader.push(c, (m) => {
      ids.length = 0;
      ackIdsOf(m, ids);
      if (!ids.length) return;
      onCount(ids.length);
      req.write(frame(Buffer.concat(ids.flatMap((id) => [Buffer.from([0x12, ...varint(id.length)]), id]))));
    }),
  );
  return () => req.close();
}

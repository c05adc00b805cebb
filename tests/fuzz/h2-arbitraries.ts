/**
 * fast-check arbitraries of what an HTTP/2 client may send: HPACK blocks (indexed fields in and
 * past the tables, literals of every kind with new or indexed names, table size updates, Huffman
 * flags on bytes that are not Huffman, lengths that lie), frames of every type with payloads
 * shaped for their type (and sometimes not), and sequences of them cut into chunks anywhere.
 */
import fc from "fast-check";
import { PREFACE, SETTINGS, frame, grpcMessage, streamingPullRequest, varint } from "../helpers/h2-peer.ts";

/** An HPACK integer (RFC 7541 §5.1) after `first`'s high bits, with an N-bit prefix. */
function hpackInt(first: number, prefix: number, n: number): number[] {
  const max = (1 << prefix) - 1;
  if (n < max) return [first | n];
  return [first | max, ...varint(n - max)];
}

const METHODS = ["/google.pubsub.v1.Publisher/GetTopic", "/google.pubsub.v1.Publisher/Publish", "/google.pubsub.v1.Subscriber/StreamingPull", "/google.pubsub.v1.Subscriber/Pull", "/x", ""];
const NAMES = [":path", ":method", ":scheme", ":authority", ":status", ":protocol", "content-type", "te", "grpc-timeout", "grpc-encoding", "content-length", "connection", "__proto__", "constructor", "x-a", "X-Upper", ""];
const VALUES = ["POST", "GET", "http", "application/grpc", "trailers", "1S", "99999999H", "gzip", "identity", "0", "-1", "a".repeat(300), "\u0000\r\n", ""];

const bytes = (max: number) => fc.uint8Array({ maxLength: max }).map((u) => Buffer.from(u));

/** A string literal: plain bytes, a Huffman flag on random bytes, or a length longer than what follows. */
const hpackString: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(fc.constantFrom(...NAMES, ...VALUES), fc.string({ maxLength: 40 })).map((s) => Buffer.from(s, "latin1")).map((b) => Buffer.from([...hpackInt(0, 7, b.length), ...b])) },
  { weight: 2, arbitrary: bytes(20).map((b) => Buffer.from([...hpackInt(0x80, 7, b.length), ...b])) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 1 << 20 }), bytes(8)).map(([n, b]) => Buffer.from([...hpackInt(0, 7, n), ...b])) },
);

const index = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 70 }) }, { weight: 1, arbitrary: fc.integer({ min: 71, max: 2 ** 28 }) });

/** One field representation (RFC 7541 §6), or a few stray bytes. */
const representation: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 4, arbitrary: index.map((i) => Buffer.from(hpackInt(0x80, 7, i))) },
  {
    weight: 6,
    arbitrary: fc.tuple(fc.constantFrom([0x40, 6], [0x00, 4], [0x10, 4]), fc.oneof(index, fc.constant(0)), hpackString, hpackString).map(([[first, prefix], i, name, value]) =>
      Buffer.concat([Buffer.from(hpackInt(first!, prefix!, i)), ...(i === 0 ? [name] : []), value]),
    ),
  },
  { weight: 1, arbitrary: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constant(2 ** 31)).map((n) => Buffer.from(hpackInt(0x20, 5, n))) },
  { weight: 1, arbitrary: bytes(6) },
);

const literal = (name: string, value: string) => Buffer.from([0, ...hpackInt(0, 7, name.length), ...Buffer.from(name, "latin1"), ...hpackInt(0, 7, value.length), ...Buffer.from(value, "latin1")]);

/** A gRPC request's fields (one of the served methods, or not), with fields of any kind among or after them. */
const requestBlock: fc.Arbitrary<Buffer> = fc
  .tuple(fc.constantFrom(...METHODS), fc.array(representation, { maxLength: 4 }), fc.boolean())
  .map(([path, extra, extraFirst]) => {
    const base = [Buffer.from([0x83, 0x86]), literal(":path", path), literal(":authority", "x"), literal("content-type", "application/grpc"), literal("te", "trailers")];
    return Buffer.concat(extraFirst ? [...extra, ...base] : [...base, ...extra]);
  });

const cleanRequest = fc.constantFrom(...METHODS).map((path) => Buffer.concat([Buffer.from([0x83, 0x86]), literal(":path", path), literal(":authority", "x"), literal("content-type", "application/grpc"), literal("te", "trailers")]));

export const hpackBlock: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 6, arbitrary: cleanRequest },
  { weight: 3, arbitrary: requestBlock },
  { weight: 1, arbitrary: fc.array(representation, { maxLength: 12 }).map((r) => Buffer.concat(r)) },
);

/** A protobuf length-delimited field. */
const field = (n: number, b: Buffer) => Buffer.concat([Buffer.from([(n << 3) | 2, ...varint(b.length)]), b]);
const TOPIC = Buffer.from("projects/fuzz/topics/fuzz");
const SUBSCRIPTION = Buffer.from("projects/fuzz/subscriptions/fuzz");
/** Requests the served methods accept: GetTopic, Publish, Pull, StreamingPull (each also read by the others, as garbage). */
const validRequests = [
  grpcMessage(field(1, TOPIC)),
  grpcMessage(Buffer.concat([field(1, TOPIC), field(2, field(1, Buffer.from("fuzz data")))])),
  grpcMessage(Buffer.concat([field(1, SUBSCRIPTION), Buffer.from([0x18, 10])])),
  streamingPullRequest(SUBSCRIPTION.toString(), 10),
];

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const WINDOWS = [0, 1, 65_535, 65_536, 2 ** 24, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1];
const SETTING_VALUES = [0, 1, 2, 100, 4096, 16_383, 16_384, 65_535, 2 ** 24 - 1, 2 ** 24, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1];

/** Padding and priority fields in front, as the flags say (or not: the flags are drawn apart). */
const padded = (body: fc.Arbitrary<Buffer>) =>
  fc.tuple(body, fc.integer({ min: 0, max: 20 }), fc.boolean(), fc.boolean()).map(([b, pad, withPad, withPriority]) => {
    const parts: Buffer[] = [];
    if (withPad) parts.push(Buffer.from([pad]));
    if (withPriority) parts.push(Buffer.from([0, 0, 0, 1, 16]));
    parts.push(b);
    if (withPad) parts.push(Buffer.alloc(pad));
    return Buffer.concat(parts);
  });

/** A payload shaped for its frame type. */
function payloadFor(type: number): fc.Arbitrary<Buffer> {
  switch (type) {
    case 0:
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...validRequests) },
        bytes(64).map((b) => grpcMessage(b)),
        fc.constant(Buffer.alloc(0)),
        padded(bytes(32)),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((n) => Buffer.concat([Buffer.from([0]), u32(n)])),
      );
    case 1:
      return padded(hpackBlock);
    case 9:
      return hpackBlock.map((b) => b.subarray(0, Math.ceil(b.length / 2)));
    case 4:
      return fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom(...SETTING_VALUES)), { maxLength: 6 }).map((pairs) => {
        const b = Buffer.alloc(pairs.length * 6);
        pairs.forEach(([id, v], i) => {
          b.writeUInt16BE(id, i * 6);
          b.writeUInt32BE(v >>> 0, i * 6 + 2);
        });
        return b;
      });
    case 6:
      return fc.oneof({ weight: 5, arbitrary: bytes(8).map((b) => Buffer.concat([b, Buffer.alloc(8 - b.length)])) }, { weight: 1, arbitrary: bytes(12) });
    case 8:
      return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...WINDOWS).map(u32) }, { weight: 1, arbitrary: bytes(6) });
    case 3:
      return fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 15 }).map(u32) }, { weight: 1, arbitrary: bytes(6) });
    case 7:
      return fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 15 }), bytes(16)).map(([last, code, debug]) => Buffer.concat([u32(last), u32(code), debug]));
    case 2:
      return fc.oneof({ weight: 5, arbitrary: fc.tuple(fc.integer({ min: 0, max: 9 }), fc.nat(255)).map(([dep, w]) => Buffer.concat([u32(dep), Buffer.from([w])])) }, { weight: 1, arbitrary: bytes(8) });
    default:
      return bytes(32);
  }
}

const STREAM_IDS = [0, 1, 3, 5, 7, 2, 4, 2 ** 31 - 1];

/** One frame of any type, flags and stream, its payload shaped for its type; or bytes that are no frame. */
const wildFrame: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 9 }) }, { weight: 1, arbitrary: fc.integer({ min: 10, max: 255 }) }),
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0, 1, 4, 5, 8, 0x20, 0x24, 0x25, 0x2c, 0x2d) }, { weight: 1, arbitrary: fc.nat(255) }),
        fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...STREAM_IDS) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 ** 31 - 1 }) }),
      )
      .chain(([type, flags, stream]) => payloadFor(type).map((p) => frame(type, flags, stream, p))),
  },
  { weight: 1, arbitrary: bytes(24) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 16_385, max: 2 ** 24 - 1 }), fc.nat(9)).map(([len, type]) => Buffer.from([len >>> 16, (len >>> 8) & 0xff, len & 0xff, type, 0, 0, 0, 0, 1])) },
);

/**
 * A step of a client's session. Most keep the protocol's shape (a new stream opens on the next
 * odd id; stream frames go to a stream opened before; connection frames to stream 0) so that
 * the cases reach calls, flow control and trailers instead of ending on their first frame.
 */
type Step =
  | { kind: "open"; block: Buffer; endStream: boolean; split: number; skip: number }
  | { kind: "stream"; which: number; type: number; flags: number; payload: Buffer }
  | { kind: "conn"; type: number; flags: number; payload: Buffer }
  | { kind: "wild"; bytes: Buffer };

const streamType = fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.constant(8) }, { weight: 1, arbitrary: fc.constantFrom(1, 2, 3) });
const connType = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(4, 6, 8) }, { weight: 1, arbitrary: fc.constantFrom(7, 0x0a, 0xff) });

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("open" as const), block: hpackBlock, endStream: fc.boolean(), split: fc.nat(), skip: fc.oneof({ weight: 9, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(1000) }) }),
  },
  {
    weight: 6,
    arbitrary: fc.tuple(fc.nat(), streamType, fc.constantFrom(0, 0, 1, 8, 9)).chain(([which, type, flags]) =>
      (type === 1 ? hpackBlock : type === 0 && flags & 8 ? padded(payloadFor(0)) : payloadFor(type)).map((payload) => ({ kind: "stream" as const, which, type, flags: type === 1 ? 5 : flags, payload })),
    ),
  },
  { weight: 2, arbitrary: fc.tuple(connType, fc.constantFrom(0, 0, 1)).chain(([type, flags]) => (flags && type === 4 ? fc.constant(Buffer.alloc(0)) : payloadFor(type)).map((payload) => ({ kind: "conn" as const, type, flags, payload }))) },
  { weight: 1, arbitrary: wildFrame.map((b) => ({ kind: "wild" as const, bytes: b })) },
);

/** The steps as bytes: stream ids given in order, a header block split into HEADERS and CONTINUATION at `split`. */
function session(steps: Step[]): Buffer[] {
  const open: number[] = [];
  let next = 1;
  return steps.map((st) => {
    switch (st.kind) {
      case "open": {
        const id = next + 2 * st.skip;
        next = id + 2;
        open.push(id);
        const end = st.endStream ? 1 : 0;
        const cut = st.block.length ? st.split % (st.block.length + 1) : 0;
        if (cut === 0 || cut === st.block.length) return frame(1, 4 | end, id, st.block);
        return Buffer.concat([frame(1, end, id, st.block.subarray(0, cut)), frame(9, 4, id, st.block.subarray(cut))]);
      }
      case "stream":
        return frame(st.type, st.flags, open.length ? open[st.which % open.length]! : 1, st.payload);
      case "conn":
        return frame(st.type, st.flags, 0, st.payload);
      case "wild":
        return st.bytes;
    }
  });
}

/** Frames for the fuzzer: a client session, mostly of the protocol's shape, that opens a stream first. */
export const frameBytes: fc.Arbitrary<Buffer[]> = fc
  .tuple(fc.record({ kind: fc.constant("open" as const), block: cleanRequest, endStream: fc.constant(false), split: fc.nat(), skip: fc.constant(0) }), fc.array(step, { maxLength: 30 }))
  .map(([first, rest]) => session([first, ...rest]));

/**
 * Zeros that complete the last frame of `all` (from `at`), so that what follows is read as a frame
 * of its own; for a header that announces more than SETTINGS_MAX_FRAME_SIZE, only the header.
 */
function completion(all: Buffer, at: number): Buffer {
  while (at < all.length) {
    const have = all.length - at;
    const header = Buffer.alloc(9);
    all.copy(header, 0, at, Math.min(all.length, at + 9));
    const length = header.readUIntBE(0, 3);
    if (have < 9) return Buffer.alloc(length > 16_384 ? 9 - have : 9 + length - have);
    if (have < 9 + length) return Buffer.alloc(length > 16_384 ? 0 : 9 + length - have);
    at += 9 + length;
  }
  return Buffer.alloc(0);
}

/** What a connection is sent: the preface and SETTINGS, then the frames, cut into chunks at any points; `tail` completes the last frame. */
export const clientBytes = fc.tuple(frameBytes, fc.array(fc.nat(), { maxLength: 6 })).map(([frames, cutsRaw]) => {
  const all = Buffer.concat([PREFACE, SETTINGS, ...frames]);
  const cuts = [...new Set(cutsRaw.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let at = 0;
  for (const c of [...cuts, all.length]) {
    if (c > at) chunks.push(all.subarray(at, c));
    at = Math.max(at, c);
  }
  return { frames: frames.length, chunks, tail: completion(all, PREFACE.length) };
});

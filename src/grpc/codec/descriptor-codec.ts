/**
 * A codec for any message of the descriptor, walking its field tables (descriptor-types.ts)
 * instead of generating code: the RPCs without a hand-written codec (the admin RPCs a client calls
 * first: CreateTopic, GetSubscription, …) answer without loading protobufjs, whose module start
 * and code generation were most of a server's first answer and ≈ 6 MB of its memory.
 *
 * Its output is what the protobufjs codec it replaces gives (definitions.ts: toObject with
 * longs: Number, enums: String, defaults: false, oneofs: true; fromObject then encode), checked
 * field by field against protobufjs in tests/codec/descriptor-codec.test.ts. Where protobufjs reads
 * a malformed request leniently (a known field on the wrong wire type, an unterminated group),
 * this refuses it, as the real service does; maps are prototype-free objects; a `string` that is
 * not UTF-8 is refused naming its field, as utf8-check.ts does after protobufjs.
 */
import { dict } from "../../core/safe-keys.ts";
import { Malformed, Reader } from "./wire.ts";
import type { FieldInfo, MessageInfo } from "./descriptor-types.ts";

/** protobufjs's and protoc's nesting limit. */
const MAX_DEPTH = 100;

type Obj = Record<string, unknown>;

// ---- decoding ----

/** A 64-bit varint as its low and high 32 bits. */
function varint64(r: Reader): [number, number] {
  let lo = 0;
  let hi = 0;
  for (let shift = 0; ; shift += 7) {
    if (r.pos >= r.end || shift > 63) throw new Malformed("bad varint");
    const b = r.buf[r.pos++]!;
    if (shift < 28) lo |= (b & 0x7f) << shift;
    else if (shift === 28) {
      lo |= (b & 0x0f) << 28;
      hi |= (b & 0x7f) >> 4;
    } else hi |= (b & 0x7f) << (shift - 32);
    if (b < 0x80) return [lo >>> 0, hi >>> 0];
  }
}

/** protobufjs's LongBits.toNumber. */
function longToNumber(lo: number, hi: number, unsigned: boolean): number {
  if (!unsigned && hi >>> 31) {
    lo = (~lo + 1) >>> 0;
    hi = ~hi >>> 0;
    if (!lo) hi = (hi + 1) >>> 0;
    return -(lo + hi * 4294967296);
  }
  return lo + hi * 4294967296;
}

function fixed(r: Reader, n: number): number {
  const at = r.pos;
  if (at + n > r.end) throw new Malformed("truncated fixed-width field");
  r.pos += n;
  return at;
}

function scalar(r: Reader, kind: string, path: string): unknown {
  const buf = r.buf;
  switch (kind) {
    case "string":
      return r.string(path);
    case "bytes":
      return r.bytesView();
    case "bool":
      return varint64(r)[0] !== 0;
    case "int32":
      return r.int32();
    case "uint32":
      return varint64(r)[0];
    case "sint32": {
      const v = varint64(r)[0];
      return (v >>> 1) ^ -(v & 1);
    }
    case "int64":
    case "uint64": {
      const [lo, hi] = varint64(r);
      return longToNumber(lo, hi, kind === "uint64");
    }
    case "sint64": {
      const [lo, hi] = varint64(r);
      const mask = -(lo & 1);
      return longToNumber((((lo >>> 1) | (hi << 31)) ^ mask) >>> 0, ((hi >>> 1) ^ mask) >>> 0, false);
    }
    case "fixed32":
      return buf.readUInt32LE(fixed(r, 4));
    case "sfixed32":
      return buf.readInt32LE(fixed(r, 4));
    case "float":
      return buf.readFloatLE(fixed(r, 4));
    case "fixed64":
    case "sfixed64": {
      const at = fixed(r, 8);
      return longToNumber(buf.readUInt32LE(at), buf.readUInt32LE(at + 4), kind === "fixed64");
    }
    case "double":
      return buf.readDoubleLE(fixed(r, 8));
  }
  throw new Malformed(`unknown scalar type ${kind}`);
}

/** Skips an unknown field of any wire type, groups included (protobufjs's skipType). */
function skip(r: Reader, wire: number, depth: number): void {
  if (wire === 3) {
    if (depth > MAX_DEPTH) throw new Malformed("groups nested too deeply");
    for (;;) {
      const w = r.varint() & 7;
      if (w === 4) return;
      skip(r, w, depth + 1);
    }
  }
  if (wire === 4) throw new Malformed("end group without its start");
  r.skip(wire);
}

function value(r: Reader, f: FieldInfo, prefix: string, depth: number): unknown {
  if (f.kind === "enum") {
    const n = r.int32();
    return f.enumInfo!.byNumber.get(n) ?? n;
  }
  if (f.kind === "message") {
    const [s, e] = r.span();
    return decodeAt(f.message!(), r.buf, s, e, `${prefix}${f.path}.`, depth + 1);
  }
  // A string field's path is only read when its bytes are not UTF-8: no concatenation at the top level.
  return scalar(r, f.kind, prefix ? prefix + f.path : f.path);
}

function mapEntry(r: Reader, f: FieldInfo, into: Obj, prefix: string, depth: number): void {
  const [s, e] = r.span();
  const entry = new Reader(r.buf, e);
  entry.pos = s;
  let key = "";
  let v: unknown = f.kind === "message" ? undefined : defaultOf(f);
  const path = prefix + f.path;
  while (!entry.done) {
    const tag = entry.varint();
    const wire = tag & 7;
    if (tag === 0x0a) key = entry.string(path);
    else if (tag >>> 3 === 2 && wire === f.wire) {
      if (f.kind === "message") {
        const [ms, me] = entry.span();
        v = decodeAt(f.message!(), entry.buf, ms, me, `${path}.`, depth + 1);
      } else v = f.kind === "enum" ? value(entry, f, prefix, depth) : scalar(entry, f.kind, path);
    } else if (tag >>> 3 === 1 || tag >>> 3 === 2) throw new Malformed(`map entry of ${f.path} has a wrong wire type`);
    else skip(entry, wire, depth);
  }
  into[key] = v ?? {};
}

function defaultOf(f: FieldInfo): unknown {
  switch (f.kind) {
    case "string":
      return "";
    case "bytes":
      return Buffer.alloc(0);
    case "bool":
      return false;
    case "enum":
      return f.enumInfo!.byNumber.get(0) ?? 0;
    default:
      return 0;
  }
}

function decodeAt(t: MessageInfo, buf: Buffer, start: number, end: number, prefix: string, depth: number): Obj {
  if (depth > MAX_DEPTH) throw new Malformed("message nested too deeply");
  const r = new Reader(buf, end);
  r.pos = start;
  // Values by the field's place in t.fields (id order), as decoded so far.
  const seen: unknown[] = new Array(t.fields.length);
  while (!r.done) {
    const tag = r.varint();
    const wire = tag & 7;
    const f = t.byId.get(Math.floor(tag / 8));
    if (!f) {
      if (tag < 8) throw new Malformed("field number 0");
      skip(r, wire, depth);
      continue;
    }
    if (f.map) {
      if (wire !== 2) throw new Malformed(`${prefix}${f.path} has a wrong wire type`);
      const m = (seen[f.index] ??= dict<unknown>()) as Obj;
      mapEntry(r, f, m, prefix, depth);
    } else if (f.repeated) {
      const list = (seen[f.index] ??= []) as unknown[];
      if (wire === 2 && f.wire !== 2) {
        // Packed, whatever the field says: parsers take both forms of a packable field.
        const [s, e] = r.span();
        const packed = new Reader(buf, e);
        packed.pos = s;
        while (!packed.done) list.push(value(packed, f, prefix, depth));
      } else if (wire === f.wire) list.push(value(r, f, prefix, depth));
      else throw new Malformed(`${prefix}${f.path} has a wrong wire type`);
    } else if (wire === f.wire) seen[f.index] = value(r, f, prefix, depth);
    else throw new Malformed(`${prefix}${f.path} has a wrong wire type`);
  }
  // As protobufjs's toObject: fields by id, an empty list or map left out, a oneof named by its member.
  const out: Obj = {};
  for (const f of t.fields) {
    const v = seen[f.index];
    if (v === undefined) continue;
    if (f.repeated && (v as unknown[]).length === 0) continue;
    if (f.map && Object.keys(v as Obj).length === 0) continue;
    out[f.name] = v;
    if (f.oneof) out[f.oneof] = f.name;
  }
  return out;
}

/** Decodes one message of type `t`; throws Malformed (or BadField for bad UTF-8). */
export function decodeMessage(t: MessageInfo, buf: Buffer): Obj {
  return decodeAt(t, buf, 0, buf.length, "", 0);
}

// ---- encoding ----

/** A growing output buffer. */
class Out {
  buf = Buffer.allocUnsafe(256);
  pos = 0;

  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint(n: number): void {
    this.room(5);
    while (n > 0x7f) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.pos++] = n;
  }

  /** A 64-bit two's complement varint from its two halves. */
  varint64(lo: number, hi: number): void {
    this.room(10);
    while (hi || lo > 0x7f) {
      this.buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    this.buf[this.pos++] = lo;
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  take(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

/** A 64-bit integer as protobufjs's Long.fromValue reads numbers, strings and {low, high}. */
function longBits(v: unknown, unsigned: boolean): [number, number] {
  let big: bigint;
  if (typeof v === "bigint") big = v;
  else if (typeof v === "string") {
    const n = v.trim();
    big = /^[-+]?\d+$/.test(n) ? BigInt(n) : BigInt(Math.trunc(Number.parseInt(n, 10) || 0));
  } else if (typeof v === "object" && v !== null && "low" in v) {
    const o = v as { low: number; high: number };
    return [o.low >>> 0, o.high >>> 0];
  } else {
    // Long.fromNumber: NaN is 0, out of range saturates, a fraction is cut off.
    const n = Number(v);
    if (Number.isNaN(n)) big = 0n;
    else if (unsigned) big = n < 0 ? 0n : n >= 2 ** 64 ? 2n ** 64n - 1n : BigInt(Math.trunc(n));
    else big = n <= -(2 ** 63) ? -(2n ** 63n) : n + 1 >= 2 ** 63 ? 2n ** 63n - 1n : BigInt(Math.trunc(n));
  }
  const u = BigInt.asUintN(64, big);
  return [Number(u & 0xffffffffn), Number(u >> 32n)];
}

function fixedBytes(o: Out, n: number, write: (b: Buffer, at: number) => void): void {
  o.room(n);
  write(o.buf, o.pos);
  o.pos += n;
}

/** One scalar value, converted as protobufjs's fromObject converts it, then written. */
function writeScalar(o: Out, kind: string, v: unknown): void {
  switch (kind) {
    case "string": {
      const s = String(v);
      const len = Buffer.byteLength(s, "utf8");
      o.varint(len);
      o.room(len);
      o.pos += o.buf.utf8Write(s, o.pos);
      return;
    }
    case "bytes": {
      if (typeof v === "string") o.bytes(Buffer.from(v, "base64"));
      else o.bytes(v instanceof Uint8Array ? v : Buffer.from(v as number[]));
      return;
    }
    case "bool":
      return o.varint(v ? 1 : 0);
    case "int32":
    case "sfixed32":
    case "sint32": {
      const n = (v as number) | 0;
      if (kind === "sint32") return o.varint(((n << 1) ^ (n >> 31)) >>> 0);
      if (kind === "sfixed32") return fixedBytes(o, 4, (b, at) => b.writeInt32LE(n, at));
      return n < 0 ? o.varint64(n >>> 0, 0xffffffff) : o.varint(n);
    }
    case "uint32":
      return o.varint((v as number) >>> 0);
    case "fixed32":
      return fixedBytes(o, 4, (b, at) => b.writeUInt32LE((v as number) >>> 0, at));
    case "float":
      return fixedBytes(o, 4, (b, at) => b.writeFloatLE(Number(v), at));
    case "double":
      return fixedBytes(o, 8, (b, at) => b.writeDoubleLE(Number(v), at));
    case "int64":
    case "uint64":
    case "sint64":
    case "fixed64":
    case "sfixed64": {
      let [lo, hi] = longBits(v, kind === "uint64" || kind === "fixed64");
      if (kind === "sint64") {
        const mask = hi >> 31;
        [lo, hi] = [((lo << 1) ^ mask) >>> 0, (((hi << 1) | (lo >>> 31)) ^ mask) >>> 0];
      }
      if (kind === "fixed64" || kind === "sfixed64") {
        return fixedBytes(o, 8, (b, at) => (b.writeUInt32LE(lo, at), b.writeUInt32LE(hi, at + 4)));
      }
      return o.varint64(lo, hi);
    }
  }
  throw new Error(`unknown scalar type ${kind}`);
}

/** An enum value as fromObject reads it: a number as is, a known name as its number, else none. */
function enumNumber(f: FieldInfo, v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string") return f.enumInfo!.byName.get(v);
  return undefined;
}

const isObject = (v: unknown): v is Obj => !!v && typeof v === "object";

function writeValue(o: Out, f: FieldInfo, v: unknown, depth: number): void {
  if (f.kind === "message") {
    if (!isObject(v)) throw new TypeError(`${f.fullName}: object expected`);
    o.bytes(encodeAt(f.message!(), v, depth + 1));
  } else if (f.kind === "enum") writeScalar(o, "int32", enumNumber(f, v) ?? f.enumInfo!.first);
  else writeScalar(o, f.kind, v);
}

function encodeAt(t: MessageInfo, d: Obj, depth: number): Buffer {
  if (depth > MAX_DEPTH) throw new Error("maximum nesting depth exceeded");
  // google.protobuf.Empty, every Acknowledge's and ModifyAckDeadline's answer: no buffer to grow.
  if (!t.fields.length) return Buffer.alloc(0);
  const o = new Out();
  for (const f of t.fields) {
    const v = d[f.name];
    if (f.map) {
      if (!v) continue;
      if (!isObject(v)) throw new TypeError(`${f.fullName}: object expected`);
      for (const k of Object.keys(v)) {
        const entry = new Out();
        entry.varint(0x0a);
        writeScalar(entry, "string", k);
        entry.varint(0x10 | f.wire);
        writeValue(entry, f, v[k], depth);
        o.varint((f.id << 3) | 2);
        o.bytes(entry.take());
      }
    } else if (f.repeated) {
      if (!v) continue;
      if (!Array.isArray(v)) throw new TypeError(`${f.fullName}: array expected`);
      if (!v.length) continue;
      if (f.packed) {
        const packed = new Out();
        for (const x of v) writeValue(packed, f, x, depth);
        o.varint((f.id << 3) | 2);
        o.bytes(packed.take());
      } else {
        for (const x of v) {
          o.varint((f.id << 3) | f.wire);
          writeValue(o, f, x, depth);
        }
      }
    } else if (f.kind === "enum") {
      const n = enumNumber(f, v);
      if (n === undefined) continue;
      o.varint((f.id << 3) | 0);
      writeScalar(o, "int32", n);
    } else if (v != null) {
      if (f.kind === "bytes" && typeof v !== "string" && !((v as { length?: number }).length! >= 0)) continue;
      o.varint((f.id << 3) | f.wire);
      writeValue(o, f, v, depth);
    }
  }
  return o.take();
}

/** Encodes a plain object as a message of type `t`, converting values as protobufjs's fromObject does. */
export function encodeMessage(t: MessageInfo, d: unknown): Buffer {
  // protobufjs's fromObject of a type without fields takes anything (a handler may answer Empty with undefined).
  if (!t.fields.length) return Buffer.alloc(0);
  if (Array.isArray(d)) throw new Error(`Failed to serialize message: expected object with ${t.fullName.split(".").pop()} structure, got array instead`);
  if (!isObject(d)) throw new TypeError(`.${t.fullName}: object expected`);
  return encodeAt(t, d, 0);
}


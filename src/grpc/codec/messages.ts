/**
 * Hand-written codecs for the hot messages. Field numbers are google/pubsub/v1/pubsub.proto's.
 * Requests decode straight into core inputs (attributes as prototype-free maps); responses
 * encode straight from core deliveries into one exactly-sized buffer.
 */
import type { Confirmation, DeliveryBatch } from "../../core/delivery/delivery-batch.ts";
import type { MessageInput, StoredMessage } from "../../core/message.ts";
import type { AckRequest, ModAckRequest, PublishRequest } from "../../rpc/contract.ts";
import type { StreamRequest } from "../../core/delivery/stream-session.ts";
import { dict } from "../../core/safe-keys.ts";
import { framedBody } from "../framed.ts";
import { Malformed, Reader, Writer, decimalLength, fieldSize, varintSize } from "./wire.ts";


export function decodePublishRequest(buf: Buffer): PublishRequest {
  const r = new Reader(buf);
  let topic = "";
  const messages: MessageInput[] = [];
  const seen = new Repeats();
  // One reader for every message, moved to each in turn.
  const inner = new Reader(buf);
  while (!r.done) {
    const tag = r.varint();
    if (tag === 0x0a) topic = r.string("topic");
    else if (tag === 0x12) {
      const [s, e] = r.span();
      inner.pos = s;
      inner.end = e;
      messages.push(decodePubsubMessage(inner, seen));
    } else r.skip(tag & 7);
  }
  // Data stay views into the request: the store copies those of messages it holds for long
  // (core/store/held-views.ts); a message nobody holds is never copied.
  return { topic, messages, requestBytes: buf.length };
}

/** Strings longer than this are decoded each time: comparing them byte by byte costs about what decoding does. */
const REPEAT_MAX = 64;
/** Attribute positions remembered per message (each a key and a value). */
const REPEAT_SLOTS = 32;

/**
 * The attribute strings of the message before, by position in its attribute list. A publisher's
 * batch repeats its keys, and often some values, message after message: a string whose bytes are
 * those of the same position before is reused instead of decoded (a native call and an
 * allocation each) and validated again, and held messages share it.
 */
class Repeats {
  private starts = new Int32Array(REPEAT_SLOTS);
  private lengths = new Int32Array(REPEAT_SLOTS).fill(-1);
  private strings = new Array<string>(REPEAT_SLOTS).fill("");

  string(r: Reader, slot: number): string {
    const len = r.varint();
    const start = r.pos;
    if (slot >= REPEAT_SLOTS || len > REPEAT_MAX) {
      r.pos = start;
      return r.stringOf(len, "messages.attributes");
    }
    if (this.lengths[slot] === len) {
      const buf = r.buf;
      const end = start + len;
      if (end > r.end) throw new Malformed("string runs past its message");
      let i = start;
      for (let j = this.starts[slot]!; i < end && buf[i] === buf[j]; i++, j++);
      if (i === end) {
        r.pos = end;
        this.starts[slot] = start;
        return this.strings[slot]!;
      }
    }
    const s = r.stringOf(len, "messages.attributes");
    this.starts[slot] = start;
    this.lengths[slot] = len;
    this.strings[slot] = s;
    return s;
  }
}

function decodePubsubMessage(r: Reader, seen: Repeats): MessageInput {
  const m: MessageInput = {};
  let slot = 0;
  while (!r.done) {
    const tag = r.varint();
    if (tag === 0x0a) m.data = r.bytesView();
    else if (tag === 0x12) {
      // A map entry: inline reads, since messages may carry up to 100 of them.
      const len = r.varint();
      const end = r.pos + len;
      if (end > r.end) throw new Malformed("attribute entry runs past its message");
      let key = "";
      let value = "";
      while (r.pos < end) {
        const t = r.varint();
        if (t === 0x0a) key = seen.string(r, slot);
        else if (t === 0x12) value = seen.string(r, slot + 1);
        else r.skip(t & 7);
      }
      if (r.pos !== end) throw new Malformed("attribute entry overruns its length");
      slot += 2;
      (m.attributes ??= dict())[key] = value;
    } else if (tag === 0x2a) m.orderingKey = r.string("messages.ordering_key");
    else r.skip(tag & 7);
  }
  return m;
}

/** The table's PublishResponse (its seqs: ids written as digits, no strings made), or plain message ids. */
export function encodePublishResponse(res: { seqs?: readonly number[]; messageIds: string[] }): Buffer {
  const seqs = res.seqs;
  let size = 0;
  if (seqs) for (let i = 0; i < seqs.length; i++) size += fieldSize(decimalLength(seqs[i]!));
  else for (const id of res.messageIds) size += fieldSize(id.length);
  const w = new Writer(framedBody(size));
  if (seqs) for (let i = 0; i < seqs.length; i++) w.decimal(1, seqs[i]!, decimalLength(seqs[i]!));
  else for (const id of res.messageIds) w.string(1, id, id.length);
  return w.buf;
}


export function decodeAcknowledgeRequest(buf: Buffer): AckRequest {
  const r = new Reader(buf);
  const out: AckRequest & { ackIds: string[] } = { subscription: "", ackIds: [] };
  while (!r.done) {
    const tag = r.varint();
    if (tag === 0x0a) out.subscription = r.string("subscription");
    else if (tag === 0x12) out.ackIds.push(r.ascii("ack_ids"));
    else r.skip(tag & 7);
  }
  return out;
}


/** The clients send one of these per received batch (lease start and extensions): hot. */
export function decodeModifyAckDeadlineRequest(buf: Buffer): ModAckRequest {
  const r = new Reader(buf);
  const out: ModAckRequest & { ackIds: string[] } = { subscription: "", ackIds: [], ackDeadlineSeconds: 0 };
  while (!r.done) {
    const tag = r.varint();
    if (tag === 0x0a) out.subscription = r.string("subscription");
    else if (tag === 0x22) out.ackIds.push(r.ascii("ack_ids"));
    else if (tag === 0x18) out.ackDeadlineSeconds = r.int32();
    else r.skip(tag & 7);
  }
  return out;
}

export function decodeStreamingPullRequest(buf: Buffer): StreamRequest {
  const r = new Reader(buf);
  const q: StreamRequest = {};
  while (!r.done) {
    const tag = r.varint();
    switch (tag) {
      case 0x0a:
        q.subscription = r.string("subscription");
        break;
      case 0x12:
        (q.ackIds ??= []).push(r.ascii("ack_ids"));
        break;
      case 0x1a: {
        // packed repeated int32
        const [start, end] = r.span();
        const packed = new Reader(buf, end);
        packed.pos = start;
        const list = (q.modifyDeadlineSeconds ??= []);
        while (!packed.done) list.push(packed.int32());
        break;
      }
      case 0x18:
        (q.modifyDeadlineSeconds ??= []).push(r.int32());
        break;
      case 0x22:
        (q.modifyDeadlineAckIds ??= []).push(r.ascii("modify_deadline_ack_ids"));
        break;
      case 0x28:
        q.streamAckDeadlineSeconds = r.int32();
        break;
      case 0x32:
        q.clientId = r.string("client_id");
        break;
      case 0x38:
        q.maxOutstandingMessages = r.varint();
        break;
      case 0x40:
        q.maxOutstandingBytes = r.varint();
        break;
      case 0x50:
        q.protocolVersion = r.varint();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return q;
}

/** What the Pull and StreamingPull handlers hand their serializer: the core decides its fields. */
export type DeliveryResponse = DeliveryBatch;

/** UTF-8 length; short ASCII strings (most ids, keys and values) are counted here, not by a native call. */
function utf8Len(s: string): number {
  const n = s.length;
  if (n > 32) return Buffer.byteLength(s, "utf8");
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) >= 0x80) return Buffer.byteLength(s, "utf8");
  return n;
}

function messageSize(m: StoredMessage): number {
  let n = 0;
  if (m.data.length) n += fieldSize(m.data.length);
  for (const k in m.attributes) n += fieldSize(fieldSize(utf8Len(k)) + fieldSize(utf8Len(m.attributes[k])));
  n += fieldSize(decimalLength(m.seq));
  n += fieldSize(timestampSize(m.publishTime));
  if (m.orderingKey) n += fieldSize(utf8Len(m.orderingKey));
  return n;
}

function timestampSize(ms: number): number {
  const nanos = (ms % 1000) * 1e6;
  return 1 + varintSize(Math.floor(ms / 1000)) + (nanos ? 1 + varintSize(nanos) : 0);
}

function writeMessage(w: Writer, m: StoredMessage, size: number): void {
  w.header(2, size);
  if (m.data.length) w.bytes(1, m.data);
  for (const k in m.attributes) {
    const v = m.attributes[k];
    const kl = utf8Len(k);
    const vl = utf8Len(v);
    w.header(2, fieldSize(kl) + fieldSize(vl));
    w.string(1, k, kl);
    w.string(2, v, vl);
  }
  // The id is the decimal seq (store contract): written without making the string.
  w.decimal(3, m.seq, decimalLength(m.seq));
  w.header(4, timestampSize(m.publishTime));
  w.tag(1, 0);
  w.varint(Math.floor(m.publishTime / 1000));
  const nanos = (m.publishTime % 1000) * 1e6;
  if (nanos) {
    w.tag(2, 0);
    w.varint(nanos);
  }
  if (m.orderingKey) w.string(5, m.orderingKey, utf8Len(m.orderingKey));
}

/** Size of an Acknowledge/ModifyAckDeadlineConfirmation: ack_ids (1) and invalid_ack_ids (2). */
function confirmationSize(c: Confirmation): number {
  let n = 0;
  for (const id of c.ackIds) n += fieldSize(utf8Len(id));
  for (const id of c.invalidAckIds) n += fieldSize(utf8Len(id));
  return n;
}

function writeConfirmation(w: Writer, field: number, c: Confirmation, size: number): void {
  w.header(field, size);
  for (const id of c.ackIds) w.string(1, id, utf8Len(id));
  for (const id of c.invalidAckIds) w.string(2, id, utf8Len(id));
}

/**
 * Encodes a PullResponse or StreamingPullResponse: received_messages (1), and for streams
 * modify_ack_deadline_confirmation (3), subscription_properties (4), acknowledge_confirmation (5).
 */
export function encodeDeliveryResponse(res: DeliveryResponse): Buffer {
  const ds = res.deliveries;
  const msgSizes = new Array<number>(ds.length);
  const recSizes = new Array<number>(ds.length);
  let total = 0;
  for (let i = 0; i < ds.length; i++) {
    const d = ds[i];
    const ms = messageSize(d.message);
    let rs = fieldSize(d.ackId.length) + fieldSize(ms);
    if (res.withAttempt) rs += 1 + varintSize(d.deliveryAttempt);
    msgSizes[i] = ms;
    recSizes[i] = rs;
    total += fieldSize(rs);
  }
  const p = res.properties;
  const propsSize = p ? (p.exactlyOnce ? 2 : 0) + (p.ordering ? 2 : 0) : 0;
  if (p) total += fieldSize(propsSize);
  const ackConf = res.ackConfirmation;
  const modConf = res.modackConfirmation;
  const ackConfSize = ackConf ? confirmationSize(ackConf) : 0;
  const modConfSize = modConf ? confirmationSize(modConf) : 0;
  if (ackConf) total += fieldSize(ackConfSize);
  if (modConf) total += fieldSize(modConfSize);
  const w = new Writer(framedBody(total));
  for (let i = 0; i < ds.length; i++) {
    const d = ds[i];
    w.header(1, recSizes[i]);
    w.string(1, d.ackId, d.ackId.length);
    writeMessage(w, d.message, msgSizes[i]);
    if (res.withAttempt) {
      w.tag(3, 0);
      w.varint(d.deliveryAttempt);
    }
  }
  if (modConf) writeConfirmation(w, 3, modConf, modConfSize);
  if (p) {
    w.header(4, propsSize);
    if (p.exactlyOnce) w.varint(0x08), w.varint(1);
    if (p.ordering) w.varint(0x10), w.varint(1);
  }
  if (ackConf) writeConfirmation(w, 5, ackConf, ackConfSize);
  if (w.pos !== total) throw new Malformed(`encoder size mismatch: ${w.pos} != ${total}`);
  return w.buf;
}

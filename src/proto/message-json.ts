/**
 * The one message → JSON renderer: a PubsubMessage as proto3 JSON (data in base64, attributes,
 * messageId, publishTime in RFC 3339, orderingKey), as REST answers a Pull, push posts it and the
 * operator API shows it. Defaults (empty data, no attributes, no key) are left out, as proto3 JSON
 * does, unless `full` asks for every field (the operator API, whose dashboard reads them all).
 */
import { formatTimestamp } from "./well-known.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export interface RenderedMessage {
  readonly id: string;
  readonly data: Uint8Array;
  readonly attributes: Readonly<Record<string, string>>;
  readonly orderingKey?: string;
  readonly publishTime: number;
}

export interface MessageJsonOptions {
  /** How publishTime is written (default: RFC 3339 with as many fraction digits as it needs). */
  time?: (ms: number) => string;
  /** Every field present, empty or not. */
  full?: boolean;
  /** The data to show instead of the message's (a truncated prefix). */
  data?: Uint8Array;
}

export const base64 = (u: Uint8Array): string => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString("base64");

const rfc3339 = (ms: number) => formatTimestamp(Math.floor(ms / 1000), (ms % 1000) * 1e6);

export function messageJson(m: RenderedMessage, o: MessageJsonOptions = {}): Obj {
  const out: Obj = {};
  const data = o.data ?? m.data;
  if (o.full || data.length) out.data = base64(data);
  if (o.full) out.attributes = m.attributes;
  else
    for (const _ in m.attributes) {
      out.attributes = m.attributes;
      break;
    }
  out.messageId = m.id;
  out.publishTime = (o.time ?? rfc3339)(m.publishTime);
  if (o.full || m.orderingKey) out.orderingKey = m.orderingKey;
  return out;
}

/** A published message, stored once per topic and shared by every subscription that holds it. */
export interface StoredMessage {
  /** The decimal form of `seq`. */
  readonly id: string;
  /** Its place in publish order, unique in the store (message ids come from it). */
  readonly seq: number;
  readonly data: Uint8Array;
  readonly attributes: Readonly<Record<string, string>>;
  readonly orderingKey: string;
  /** Publish time in milliseconds since the epoch. */
  readonly publishTime: number;
  /** Bytes counted against flow control: data + attribute keys and values + ordering key. */
  readonly size: number;
}

/** What a publisher hands the core: the message before it gets an id and a publish time. */
export interface MessageInput {
  data?: Uint8Array;
  attributes?: Record<string, string>;
  orderingKey?: string;
}

/** One delivery of a message to a consumer. `ackId` is unique to this delivery. */
export interface Delivery {
  ackId: string;
  message: StoredMessage;
  /** 1 on first delivery; counts nacks and expiries. */
  deliveryAttempt: number;
}

const encoder = new TextEncoder();

/** UTF-8 byte length without allocating for ASCII strings. */
export function byteLength(s: string): number {
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  return ascii ? s.length : encoder.encode(s).length;
}

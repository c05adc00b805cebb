/** HTTP/2 frame layout (RFC 9113 §4, §6): 9-byte headers and the few fixed-size frames we send. */

export const PREFACE_LENGTH = 24;
export const FRAME_HEADER = 9;

export const enum Type {
  DATA = 0,
  HEADERS = 1,
  PRIORITY = 2,
  RST_STREAM = 3,
  SETTINGS = 4,
  PUSH_PROMISE = 5,
  PING = 6,
  GOAWAY = 7,
  WINDOW_UPDATE = 8,
  CONTINUATION = 9,
}

export const enum Flag {
  END_STREAM = 0x1,
  ACK = 0x1,
  END_HEADERS = 0x4,
  PADDED = 0x8,
  PRIORITY = 0x20,
}

export const enum Setting {
  HEADER_TABLE_SIZE = 1,
  ENABLE_PUSH = 2,
  MAX_CONCURRENT_STREAMS = 3,
  INITIAL_WINDOW_SIZE = 4,
  MAX_FRAME_SIZE = 5,
  MAX_HEADER_LIST_SIZE = 6,
}

/** Error codes (RFC 9113 §7). */
export const enum H2Error {
  NO_ERROR = 0,
  PROTOCOL_ERROR = 1,
  INTERNAL_ERROR = 2,
  FLOW_CONTROL_ERROR = 3,
  STREAM_CLOSED = 5,
  FRAME_SIZE_ERROR = 6,
  REFUSED_STREAM = 7,
  CANCEL = 8,
  COMPRESSION_ERROR = 9,
  ENHANCE_YOUR_CALM = 11,
}

export const DEFAULT_WINDOW = 65_535;
export const MAX_WINDOW = 2 ** 31 - 1;
export const MIN_FRAME_SIZE = 16_384;
export const MAX_FRAME_SIZE = 2 ** 24 - 1;

export function writeHeader(buf: Uint8Array, at: number, length: number, type: number, flags: number, stream: number): void {
  buf[at] = length >>> 16;
  buf[at + 1] = (length >>> 8) & 0xff;
  buf[at + 2] = length & 0xff;
  buf[at + 3] = type;
  buf[at + 4] = flags;
  buf[at + 5] = (stream >>> 24) & 0x7f;
  buf[at + 6] = (stream >>> 16) & 0xff;
  buf[at + 7] = (stream >>> 8) & 0xff;
  buf[at + 8] = stream & 0xff;
}

export function frameHeader(length: number, type: number, flags: number, stream: number): Buffer {
  const b = Buffer.allocUnsafe(FRAME_HEADER);
  writeHeader(b, 0, length, type, flags, stream);
  return b;
}

/** A frame whose payload is 32-bit words (RST_STREAM, WINDOW_UPDATE, GOAWAY's first two). */
export function wordsFrame(type: number, flags: number, stream: number, words: number[], tail?: Buffer): Buffer {
  const len = words.length * 4 + (tail?.length ?? 0);
  const b = Buffer.allocUnsafe(FRAME_HEADER + len);
  writeHeader(b, 0, len, type, flags, stream);
  for (let i = 0; i < words.length; i++) b.writeUInt32BE(words[i]! >>> 0, FRAME_HEADER + i * 4);
  tail?.copy(b, FRAME_HEADER + words.length * 4);
  return b;
}

export function settingsFrame(values: [Setting, number][]): Buffer {
  const b = Buffer.allocUnsafe(FRAME_HEADER + values.length * 6);
  writeHeader(b, 0, values.length * 6, Type.SETTINGS, 0, 0);
  values.forEach(([id, v], i) => {
    b.writeUInt16BE(id, FRAME_HEADER + i * 6);
    b.writeUInt32BE(v >>> 0, FRAME_HEADER + i * 6 + 2);
  });
  return b;
}

export const SETTINGS_ACK = frameHeader(0, Type.SETTINGS, Flag.ACK, 0);

/**
 * HPACK (RFC 7541) for the raw HTTP/2 server. Header blocks are decoded one field at a time
 * (hpack-reader.ts, hpack-table.ts), so that a block cannot expand past the header list limit (a
 * one-byte index can name a 4 KiB table entry). Our own header blocks are written as literals that
 * never touch the peer's dynamic table: a few fixed fields per response, no state.
 */
import { dict } from "../../core/safe-keys.ts";
import { FieldCheck } from "./fields.ts";
import { BlockReader, CompressionError } from "./hpack-reader.ts";
import { HeaderTable } from "./hpack-table.ts";

export { CompressionError };
/** A block that decodes to far more than the header list limit (an HPACK bomb): not worth decoding on. */
export class HeaderBomb extends Error {}

/** Decoded bytes of one block past which it is a bomb: a 1-byte index can name a 4 KiB entry. */
const BOMB_FACTOR = 4;
/** The longest block kept to be compared with the next (a copy: a view would hold its whole read chunk). */
const MAX_REPEAT = 4096;

export type Headers = Record<string, string>;

export class HeaderDecoder {
  private readonly table: HeaderTable;
  /**
   * The last block that left the dynamic table as it found it, its fields and what the check
   * made of them. The table has not changed since (a block that changes it clears this), so the
   * same bytes decode to the same fields: a repeat costs a compare, not a decode. Streams opened
   * and cancelled in a flood (rapid reset) repeat one block; so do clients that index every field.
   */
  private last: Buffer | null = null;
  private lastFields: Headers | null = null;
  private readonly lastCheck = new FieldCheck();

  constructor(
    tableSize: number,
    private readonly maxListSize: number,
  ) {
    this.table = new HeaderTable(tableSize);
  }

  /**
   * The fields of one complete header block, in a prototype-free map (a repeated field keeps its
   * last value); null when their size passes the list limit (the block is still decoded, so the
   * table stays in step). Each field also goes through `check` (RFC 9113's rules, fields.ts):
   * its characters when it is a literal, its place and meaning always.
   * Throws CompressionError for a block that does not decode: the connection's table is then
   * lost, so the caller ends the connection; HeaderBomb past BOMB_FACTOR times the limit.
   * The fields of a repeated block are the same object as the last time's: not to be changed.
   */
  decode(block: Buffer, check: FieldCheck): Headers | null {
    const last = this.last;
    if (last !== null && last.length === block.length && check.sameStart(this.lastCheck) && last.equals(block)) {
      check.copyFrom(this.lastCheck);
      return this.lastFields;
    }
    this.last = null;
    let tableChanged = false;
    const r = new BlockReader(block);
    const table = this.table;
    const out = dict<string>();
    let size = 0;
    let fields = 0;
    try {
      while (!r.done) {
        const first = r.peek();
        let name: string;
        let value: string;
        if (first & 0x80) {
          // An indexed field (§6.1).
          ({ name, value } = table.lookup(r.int(7)));
        } else if (first & 0x40 || !(first & 0x20)) {
          // A literal, added to the table (§6.2.1) or not (§6.2.2, §6.2.3).
          const incremental = (first & 0x40) !== 0;
          const index = r.int(incremental ? 6 : 4);
          name = index === 0 ? r.str() : table.lookup(index).name;
          value = r.str();
          // Characters are checked where strings enter; an indexed field was checked as it entered the table.
          check.literal(index === 0 ? name : null, value, incremental);
          if (incremental) {
            table.add(name, value);
            tableChanged = true;
          }
        } else {
          // A dynamic table size update (§6.3): only at the start of a block (§4.2).
          if (fields > 0) throw new CompressionError("table size update after a field");
          table.updateSize(r.int(5));
          tableChanged = true;
          continue;
        }
        fields++;
        check.field(name, value);
        size += name.length + value.length + 32;
        if (size <= this.maxListSize) out[name] = value;
        else if (size > BOMB_FACTOR * this.maxListSize) throw new HeaderBomb(`A header block decodes to more than ${BOMB_FACTOR * this.maxListSize} bytes.`);
      }
    } catch (e) {
      if (e instanceof HeaderBomb) throw e;
      throw new CompressionError(e instanceof Error ? e.message.slice(0, 100) : "bad header block");
    }
    const fieldsOut = size <= this.maxListSize ? out : null;
    if (!tableChanged && block.length <= MAX_REPEAT) {
      this.last = Buffer.from(block);
      this.lastFields = fieldsOut;
      this.lastCheck.copyFrom(check);
    }
    return fieldsOut;
  }
}

function intLength(n: number, prefix: number): number {
  const max = (1 << prefix) - 1;
  if (n < max) return 1;
  let len = 2;
  for (n -= max; n >= 0x80; n = Math.floor(n / 128)) len++;
  return len;
}

function writeInt(buf: Buffer, at: number, n: number, prefix: number, first: number): number {
  const max = (1 << prefix) - 1;
  if (n < max) {
    buf[at] = first | n;
    return at + 1;
  }
  buf[at++] = first | max;
  for (n -= max; n >= 0x80; n = Math.floor(n / 128)) buf[at++] = (n % 128) | 0x80;
  buf[at++] = n;
  return at;
}

/** ":status: 200" is static table entry 8; another status is a literal with entry 8's name. */
const STATUS_200 = 0x88;
const STATUS_NAME = 0x08;

/** A string literal without Huffman coding: its length, then its bytes. */
const stringSize = (s: string) => intLength(s.length, 7) + s.length;
function writeString(buf: Buffer, at: number, s: string): number {
  at = writeInt(buf, at, s.length, 7, 0);
  return at + buf.latin1Write(s, at);
}

/** A header block of literals without indexing (RFC 7541 §6.2.2); names are lower case ASCII. */
export function encodeHeaders(headers: Record<string, string | number>): Buffer {
  const fields: [string, string][] = [];
  let size = 0;
  for (const name in headers) {
    const value = String(headers[name]);
    fields.push([name, value]);
    if (name !== ":status") size += 1 + stringSize(name) + stringSize(value);
    else size += value === "200" ? 1 : 1 + stringSize(value);
  }
  const buf = Buffer.allocUnsafe(size);
  let at = 0;
  for (const [name, value] of fields) {
    if (name === ":status" && value === "200") {
      buf[at++] = STATUS_200;
    } else if (name === ":status") {
      buf[at++] = STATUS_NAME;
      at = writeString(buf, at, value);
    } else {
      buf[at++] = 0;
      at = writeString(buf, at, name);
      at = writeString(buf, at, value);
    }
  }
  return buf;
}

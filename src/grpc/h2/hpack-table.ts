/**
 * HPACK's indexing tables (RFC 7541 §2.3): the static table — hpack.js's data file, required alone
 * (its index would load readable-stream and node:stream) — then one connection's dynamic table.
 */
import { CompressionError } from "./hpack-reader.ts";

export interface Entry {
  readonly name: string;
  readonly value: string;
  /** Its size as §4.1 counts it: name and value octets + 32. */
  readonly size: number;
}

let statics: readonly Entry[] | undefined;
/** Read with the first connection's table (the test API's preload reads it at import). */
export function staticTable(): readonly Entry[] {
  if (!statics) {
    const { table } = require("hpack.js/lib/hpack/static-table.js") as { table: { name: string; value: string }[] };
    statics = table.map(({ name, value }) => ({ name, value, size: name.length + value.length + 32 }));
  }
  return statics;
}

export class HeaderTable {
  private readonly statics = staticTable();
  /** Oldest first: index 62 is the last one. */
  private readonly dynamic: Entry[] = [];
  private size = 0;
  private maxSize: number;

  /** `protocolMaxSize`: SETTINGS_HEADER_TABLE_SIZE, which a size update may not pass. */
  constructor(private readonly protocolMaxSize: number) {
    this.maxSize = protocolMaxSize;
  }

  lookup(index: number): Entry {
    if (index === 0) throw new CompressionError("A field is indexed 0.");
    if (index <= this.statics.length) return this.statics[index - 1]!;
    const at = this.dynamic.length + this.statics.length - index;
    if (at < 0) throw new CompressionError("A field's index is past the table.");
    return this.dynamic[at]!;
  }

  /** `name` and `value` are latin1 text, one character per octet. */
  add(name: string, value: string): void {
    const entry = { name, value, size: name.length + value.length + 32 };
    this.dynamic.push(entry);
    this.size += entry.size;
    this.evict();
  }

  updateSize(size: number): void {
    if (size > this.protocolMaxSize) throw new CompressionError("A table size update passes SETTINGS_HEADER_TABLE_SIZE.");
    this.maxSize = size;
    this.evict();
  }

  private evict(): void {
    while (this.size > this.maxSize) this.size -= this.dynamic.shift()!.size;
  }
}

/**
 * HPACK's primitive representations (RFC 7541 §5) read from one header block: prefixed integers
 * and string literals, Huffman coded or not. The Huffman decoding tree is hpack.js's data file,
 * required alone: hpack.js's index loads its stream compressor too, and with it readable-stream and
 * node:stream (≈ 4 MB of RSS and a few ms on the first connection) that decoding never uses.
 */

/** A block that does not decode: the connection's table is lost with it. */
export class CompressionError extends Error {}

/** hpack.js's tree: per node, an entry per next octet — a child node, or (bits << 9) | symbol, 0 for none. */
type HuffmanNode = (number | HuffmanNode)[];
const EOS = 256;

let tree: HuffmanNode | undefined;
/** Read with the first Huffman-coded string (the test API's preload reads it at import). */
export const huffmanTree = (): HuffmanNode => (tree ??= (require("hpack.js/lib/hpack/huffman.js") as { decode: HuffmanNode }).decode);

/** The most continuation octets of an integer, as hpack.js allows (the value stays under 2^28 past its prefix). */
const MAX_CONTINUATIONS = 4;

export class BlockReader {
  private at = 0;

  constructor(private readonly block: Buffer) {}

  get done(): boolean {
    return this.at >= this.block.length;
  }

  /** The next representation's first octet, left unread; only when not done. */
  peek(): number {
    return this.block[this.at]!;
  }

  /** An integer whose first octet keeps `prefix` bits for it (§5.1). */
  int(prefix: number): number {
    const b = this.block;
    if (this.at >= b.length) throw new CompressionError("An integer is cut off.");
    const max = (1 << prefix) - 1;
    let n = b[this.at++]! & max;
    if (n !== max) return n;
    for (let i = 0; i < MAX_CONTINUATIONS; i++) {
      if (this.at >= b.length) throw new CompressionError("An integer is cut off.");
      const octet = b[this.at++]!;
      n += (octet & 0x7f) << (7 * i);
      if (!(octet & 0x80)) return n;
    }
    throw new CompressionError("An integer does not fit into 32 bits.");
  }

  /** A string literal (§5.2) as latin1 text, as node:http2 reads header bytes. */
  str(): string {
    const b = this.block;
    if (this.at >= b.length) throw new CompressionError("A string is cut off.");
    const huffman = (b[this.at]! & 0x80) !== 0;
    const length = this.int(7);
    if (length > b.length - this.at) throw new CompressionError("A string is longer than its block.");
    const start = this.at;
    this.at += length;
    return huffman ? decodeHuffman(b, start, this.at) : b.latin1Slice!(start, this.at);
  }
}

/**
 * Huffman-coded octets (§5.2, Appendix B) as latin1 text: hpack.js's walk of its tree, up to 8 bits
 * at a time. The padding must be fewer than 8 bits, all ones (a prefix of EOS); EOS itself is an error.
 */
function decodeHuffman(b: Buffer, start: number, end: number): string {
  const root = huffmanTree();
  let node = root;
  let out = "";
  let word = 0;
  let bits = 0;
  for (let at = start; at < end; at++) {
    word = (word << 8) | b[at]!;
    bits += 8;
    // Every whole code in `word`'s low `bits` bits, leaving the rest (and the node it reached).
    let found: number | HuffmanNode = 0;
    for (; bits > 0; word &= (1 << bits) - 1) {
      for (let i = Math.max(0, bits - 8); i < bits; i++) {
        found = node[word >>> i]!;
        if (typeof found !== "number") {
          node = found;
          bits = i;
          break;
        }
        if (found === 0) continue;
        if (found >>> 9 !== bits - i) {
          found = 0;
          continue;
        }
        const symbol = found & 0x1ff;
        if (symbol === EOS) throw new CompressionError("A Huffman string holds EOS.");
        out += String.fromCharCode(symbol);
        node = root;
        bits = i;
        break;
      }
      if (found === 0) break;
    }
    word &= (1 << bits) - 1;
  }
  if (node !== root) throw new CompressionError("A Huffman string's padding is longer than 7 bits.");
  if (word + 1 !== 1 << bits) throw new CompressionError("A Huffman string's padding is not EOS.");
  return out;
}

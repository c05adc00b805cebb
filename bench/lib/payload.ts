// Payload sizes and the spec's size mixes. Buffers are random bytes, allocated once per
// size and shared (the client does not mutate them). The mix is chosen per sequence
// number by a fixed hash, so every run of a mix sends the same sizes in the same order.
import { randomBytes } from "node:crypto";

export const KB = 1024;
export const SIZES: Record<string, number> = { "1KB": KB, "10KB": 10 * KB, "500KB": 500 * KB, "1MB": 1024 * KB };

export const MIXES: Record<string, [share: number, bytes: number][]> = {
  "small-only": [[1, KB]],
  "large-only": [[1, 500 * KB]],
  mixed: [[0.9, KB], [0.1, 500 * KB]],
  "mixed-heavy": [[0.5, KB], [0.5, 500 * KB]],
  "full-spectrum": [[0.7, KB], [0.2, 10 * KB], [0.08, 500 * KB], [0.02, 1024 * KB]],
};

const cache = new Map<number, Buffer>();
export function bytes(n: number): Buffer {
  let b = cache.get(n);
  if (!b) { b = randomBytes(n); cache.set(n, b); }
  return b;
}

function unit(seq: number): number {
  let h = (seq + 0x9e3779b9) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/** payload(seq) for a fixed size name ("1KB") or a mix name ("mixed"). */
export function payloadFn(name: string): (seq: number) => Buffer {
  if (SIZES[name]) { const b = bytes(SIZES[name]!); return () => b; }
  const mix = MIXES[name];
  if (!mix) throw new Error(`unknown payload ${name}; sizes: ${Object.keys(SIZES)}, mixes: ${Object.keys(MIXES)}`);
  return (seq) => {
    let u = unit(seq);
    for (const [share, n] of mix) { if (u < share) return bytes(n); u -= share; }
    return bytes(mix[mix.length - 1]![1]);
  };
}

/** Mean bytes per message of a payload name. */
export function meanBytes(name: string): number {
  if (SIZES[name]) return SIZES[name]!;
  return MIXES[name]!.reduce((s, [share, n]) => s + share * n, 0);
}

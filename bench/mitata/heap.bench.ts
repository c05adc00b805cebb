/**
 * Lease bookkeeping: MinHeap push/pop/remove of 10k entries and TimedHeap add/remove of 10k
 * leases. TimedHeap runs on a clock whose timers are inert (fixtures.nullClock), so the figures
 * are the heap's own cost, not a timer implementation's.
 *
 *   bun bench/mitata/heap.bench.ts
 */
import { bench, do_not_optimize, group } from "mitata";
import { MinHeap, type HeapEntry } from "../../src/core/heap.ts";
import { TimedHeap } from "../../src/core/timed-heap.ts";
import { assert, nullClock, prng, shuffled, main } from "./fixtures.ts";

const N = 10_000;
const rnd = prng(42);
const entries = (keys: (i: number) => number): HeapEntry[] =>
  Array.from({ length: N }, (_, i) => ({ key: keys(i), heapIndex: -1 }));

// Entries are reused across iterations: every bench leaves its heap empty (heapIndex back to -1).
const randomKeys = entries(() => Math.floor(rnd() * 1e9));
const ascendingKeys = entries((i) => 1_700_000_000_000 + i); // leases: deadline = now + constant
const randomOrder = shuffled(randomKeys, 3);
const ascendingShuffled = shuffled(ascendingKeys, 4);

const heap = new MinHeap<HeapEntry>();
const timed = new TimedHeap<HeapEntry>(nullClock, () => {});

// sanity: pops come out sorted
{
  for (const e of randomKeys) heap.push(e);
  let last = -Infinity;
  for (let e = heap.pop(); e; e = heap.pop()) {
    assert(e.key >= last, "heap order");
    last = e.key;
  }
}

group("MinHeap, 10k entries", () => {
  bench("push 10k random keys + pop 10k", () => {
    for (let i = 0; i < N; i++) heap.push(randomKeys[i]);
    for (let i = 0; i < N; i++) do_not_optimize(heap.pop());
  });
  bench("push 10k ascending keys + pop 10k", () => {
    for (let i = 0; i < N; i++) heap.push(ascendingKeys[i]);
    for (let i = 0; i < N; i++) do_not_optimize(heap.pop());
  });
  bench("push 10k random keys + remove 10k in random order", () => {
    for (let i = 0; i < N; i++) heap.push(randomKeys[i]);
    for (let i = 0; i < N; i++) heap.remove(randomOrder[i]);
    do_not_optimize(heap.size);
  });
});

group("TimedHeap (lease heap), 10k leases", () => {
  bench("add 10k ascending deadlines + remove 10k in ack order", () => {
    for (let i = 0; i < N; i++) timed.add(ascendingKeys[i], ascendingKeys[i].key);
    for (let i = 0; i < N; i++) timed.remove(ascendingKeys[i]);
    do_not_optimize(timed.size);
  });
  bench("add 10k ascending deadlines + remove 10k shuffled", () => {
    for (let i = 0; i < N; i++) timed.add(ascendingKeys[i], ascendingKeys[i].key);
    for (let i = 0; i < N; i++) timed.remove(ascendingShuffled[i]);
    do_not_optimize(timed.size);
  });
  bench("add 10k random deadlines + remove 10k shuffled", () => {
    for (let i = 0; i < N; i++) timed.add(randomKeys[i], randomKeys[i].key);
    for (let i = 0; i < N; i++) timed.remove(randomOrder[i]);
    do_not_optimize(timed.size);
  });
  bench("add 10k + reschedule 10k (modAck extend) + remove 10k", () => {
    for (let i = 0; i < N; i++) timed.add(ascendingKeys[i], ascendingKeys[i].key);
    for (let i = 0; i < N; i++) timed.reschedule(ascendingShuffled[i], ascendingShuffled[i].key + 60_000);
    for (let i = 0; i < N; i++) timed.remove(ascendingKeys[i]);
    // restore the keys so the next iteration starts from the same state
    for (let i = 0; i < N; i++) ascendingKeys[i].key = 1_700_000_000_000 + i;
    do_not_optimize(timed.size);
  });
});

if (import.meta.main) await main();

/**
 * The worker pool that runs message transforms off the event loop: up to `size` worker threads
 * (udf-worker.ts), each with its own QuickJS engine, started as work needs them (and one spare
 * while all are busy). A chain runs one
 * batch at a time, in the order its batches came, on whichever worker is free (one that has
 * compiled it first); other chains use the other workers, so a UDF spinning to its time limit
 * delays only its own topic or subscription while a worker is free. What a chain is given while
 * its batch runs (Publishes, a subscription's messages) crosses together next, in order.
 */
import type { PooledChain, PoolInput, PoolOutcome, PoolStep, UdfPool } from "../core/stages/transform-engine.ts";
import { copyAttributes } from "./quickjs-engine.ts";
import { FAILED, FILTERED, KEPT, MESSAGE, type FromWorker, type ToWorker } from "./udf-protocol.ts";
import { workerEntryOf } from "../runtime/worker-entry.ts";

/** Messages in one crossing at most (a Publish has ≤ 1,000); more wait for the next. */
const CROSSING_MESSAGES = 1000;

type Outcomes = (PoolOutcome | undefined)[];

interface Job {
  inputs: readonly PoolInput[];
  stop: boolean;
  done: (outs: Outcomes) => void;
}

interface Slot {
  worker: Worker;
  /** The chains this worker has been sent. */
  chains: Set<number>;
  busy: { chain: Chain; jobs: Job[] } | null;
}

class Chain implements PooledChain {
  readonly queue: Job[] = [];
  running = false;
  disposed = false;

  constructor(
    private readonly pool: WorkerPool,
    readonly id: number,
    readonly steps: readonly PoolStep[],
  ) {}

  run(inputs: readonly PoolInput[], stop: boolean): Promise<Outcomes> {
    return new Promise((done) => this.pool.enqueue(this, { inputs, stop, done }));
  }

  dispose(): void {
    this.disposed = true;
    this.pool.release(this);
  }
}

export class WorkerPool implements UdfPool {
  private readonly slots: Slot[] = [];
  /** Chains with queued jobs, in the order they became ready. */
  private readonly ready: Chain[] = [];
  private nextChain = 1;
  private nextJob = 1;
  private pumping = false;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly entry: string | URL = workerEntryOf(import.meta.url, "./udf-worker.ts", "./transforms/udf-worker.js"),
  ) {}

  /** Worker threads running. */
  get workers(): number {
    return this.slots.length;
  }

  chain(steps: readonly PoolStep[]): PooledChain {
    return new Chain(this, this.nextChain++, steps);
  }

  /** Jobs given in one turn are looked at together at its end, so a chain's single messages cross as one batch. */
  enqueue(chain: Chain, job: Job): void {
    if (this.closed) return job.done(failAll(job.inputs.length, "The emulator is stopping"));
    chain.queue.push(job);
    if (chain.queue.length === 1 && !chain.running) this.ready.push(chain);
    if (!this.pumping) {
      this.pumping = true;
      queueMicrotask(() => {
        this.pumping = false;
        this.pump();
      });
    }
  }

  /** A disposed chain leaves the workers once nothing of it is queued or running. */
  release(chain: Chain): void {
    if (!chain.disposed || chain.running || chain.queue.length) return;
    for (const s of this.slots) if (s.chains.delete(chain.id)) s.worker.postMessage({ t: "drop", id: chain.id } satisfies ToWorker);
  }

  private pump(): void {
    while (this.ready.length) {
      const chain = this.ready[0];
      const slot = this.freeSlot(chain);
      if (!slot) return;
      this.ready.shift();
      this.send(slot, chain);
    }
    // A spare starts while every worker is busy (a start takes tens of ms), so the next chain
    // need not wait for one behind a UDF at its time limit.
    if (this.slots.length < this.size && this.slots.every((s) => s.busy)) this.spawn();
  }

  /** A free worker, preferring one that has the chain; a new one while under the size. */
  private freeSlot(chain: Chain): Slot | null {
    let free: Slot | null = null;
    for (const s of this.slots) {
      if (s.busy) continue;
      if (s.chains.has(chain.id)) return s;
      free ??= s;
    }
    if (free || this.slots.length >= this.size) return free;
    return this.spawn();
  }

  private spawn(): Slot {
    const worker = new Worker(this.entry);
    // An idle pool must not keep a process alive; a worker is held (ref) only while it runs a
    // batch — waiting on an unref'd worker, Bun's event loop polls instead of sleeping (measured:
    // 12–18 µs of main-thread CPU per message, against 1.3 held).
    hold(worker, false);
    const slot: Slot = { worker, chains: new Set(), busy: null };
    worker.onmessage = (e: MessageEvent<FromWorker>) => this.answered(slot, e.data);
    worker.onerror = (e) => this.lost(slot, e.message);
    this.slots.push(slot);
    return slot;
  }

  /** Takes the chain's next jobs to the worker: those queued (alike in stopping) cross together, each a group. */
  private send(slot: Slot, chain: Chain): void {
    const jobs: Job[] = [chain.queue.shift()!];
    const stop = jobs[0].stop;
    let count = jobs[0].inputs.length;
    while (chain.queue.length && chain.queue[0].stop === stop && count + chain.queue[0].inputs.length <= CROSSING_MESSAGES) {
      const next = chain.queue.shift()!;
      count += next.inputs.length;
      jobs.push(next);
    }
    const groups = new Uint32Array(jobs.length);
    let attributes = "";
    let meta = "";
    let bytes = 0;
    for (const j of jobs) for (const m of j.inputs) bytes += m.data.length;
    const data = new Uint8Array(bytes);
    const ends = new Uint32Array(count);
    let at = 0;
    let i = 0;
    for (let g = 0; g < jobs.length; g++) {
      for (const m of jobs[g].inputs) {
        const sep = i === 0 ? "" : "\n";
        attributes += sep + JSON.stringify(m.attributes);
        meta += sep + JSON.stringify(m.meta);
        data.set(m.data, at);
        ends[i++] = at += m.data.length;
      }
      groups[g] = i;
    }
    if (!slot.chains.has(chain.id)) {
      slot.chains.add(chain.id);
      slot.worker.postMessage({ t: "chain", id: chain.id, steps: chain.steps } satisfies ToWorker);
    }
    const job = this.nextJob++;
    chain.running = true;
    slot.busy = { chain, jobs };
    hold(slot.worker, true);
    slot.worker.postMessage({ t: "run", job, id: chain.id, stop, groups, attributes, meta, data: data.buffer, ends } satisfies ToWorker, [data.buffer]);
  }

  private answered(slot: Slot, r: FromWorker): void {
    const texts = JSON.parse(r.texts) as unknown[];
    const outs: Outcomes = new Array(r.kinds.length);
    const inputs = slot.busy ? (slot.busy.jobs.length === 1 ? slot.busy.jobs[0].inputs : slot.busy.jobs.flatMap((j) => j.inputs)) : [];
    for (let i = 0, at = 0; i < outs.length; i++) {
      const k = r.kinds[i];
      if (k === MESSAGE) outs[i] = { kind: "message", data: new Uint8Array(r.data, at, r.ends[i] - at), attributes: copyAttributes(texts[i] as Record<string, string>) };
      else if (k === KEPT) outs[i] = { kind: "message", data: inputs[i].data, attributes: copyAttributes(texts[i] as Record<string, string>) };
      else if (k === FILTERED) outs[i] = { kind: "filtered" };
      else if (k === FAILED) outs[i] = { kind: "failed", step: r.steps[i], error: texts[i] as string };
      else outs[i] = undefined;
      at = r.ends[i];
    }
    this.finish(slot, outs);
  }

  /** The batch's outcomes to its jobs; the chain's next jobs, if any, become ready. */
  private finish(slot: Slot, outs: Outcomes): void {
    const busy = slot.busy;
    slot.busy = null;
    hold(slot.worker, false);
    if (busy) {
      let from = 0;
      for (const j of busy.jobs) {
        j.done(outs.slice(from, from + j.inputs.length));
        from += j.inputs.length;
      }
      const chain = busy.chain;
      chain.running = false;
      if (chain.queue.length) this.ready.push(chain);
      else this.release(chain);
    }
    this.pump();
  }

  /** A worker that died fails its batch (never expected: the engine bounds every call); another is started when needed. */
  private lost(slot: Slot, why: string): void {
    this.slots.splice(this.slots.indexOf(slot), 1);
    slot.worker.terminate();
    const count = slot.busy?.jobs.reduce((n, j) => n + j.inputs.length, 0) ?? 0;
    this.finish(slot, failAll(count, `The JavaScript engine failed: ${String(why).slice(0, 300)}`));
  }

  /** Stops the workers; what is queued or running fails (the server is stopping). */
  close(): void {
    this.closed = true;
    for (const s of this.slots.splice(0)) {
      s.worker.terminate();
      for (const j of s.busy?.jobs ?? []) j.done(failAll(j.inputs.length, "The emulator is stopping"));
    }
    for (const c of this.ready.splice(0)) for (const j of c.queue.splice(0)) j.done(failAll(j.inputs.length, "The emulator is stopping"));
  }
}

/** Bun's Worker has ref() and unref() (the DOM typings do not). */
function hold(worker: Worker, held: boolean): void {
  const w = worker as unknown as { ref(): void; unref(): void };
  if (held) w.ref();
  else w.unref();
}

function failAll(n: number, error: string): Outcomes {
  return Array.from({ length: n }, () => ({ kind: "failed", step: 0, error }));
}

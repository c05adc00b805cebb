/**
 * Worker thread of the UDF pool: its own QuickJS engine, the chains the pool sends (compiled on
 * their first batch here), and batches of messages through them. Each step takes the batch's
 * remaining messages in one entry into the interpreter (QuickJsEngine.runBatch); with `stop`
 * (a Publish) a step runs only the messages before the first failure so far, since the Publish
 * fails there.
 */
import { compressionStep } from "../core/stages/compression.ts";
import type { PoolStep } from "../core/stages/transform-engine.ts";
import { nodeCompression } from "./compression-codec.ts";
import { batchItem, loadQuickJsEngine, type BatchUdf, type QuickJsEngine } from "./quickjs-engine.ts";
import { FAILED, FILTERED, KEPT, MESSAGE, NOT_RUN, type FromWorker, type ToWorker } from "./udf-protocol.ts";

declare const self: Worker;

interface Chain {
  steps: readonly PoolStep[];
  /** Per step, its compiled UDF (or why it does not compile here); compressions need none. */
  compiled: (BatchUdf | string | null)[] | null;
}

const chains = new Map<number, Chain>();
let engine: QuickJsEngine | null = null;
/** What came before the engine loaded (this worker's first moments). */
const waiting: ToWorker[] = [];
void loadQuickJsEngine().then((e) => {
  engine = e;
  for (const m of waiting.splice(0)) handle(m);
});

function compiled(chain: Chain, udfs: QuickJsEngine): (BatchUdf | string | null)[] {
  chain.compiled ??= chain.steps.map((s) => (s.kind === "javascript_udf" ? udfs.compile(s.name, s.code) : null));
  return chain.compiled;
}

function run(m: Extract<ToWorker, { t: "run" }>): FromWorker {
  const n = m.ends.length;
  const kinds = new Uint8Array(n).fill(MESSAGE);
  const steps = new Uint8Array(n);
  const texts = n ? m.attributes.split("\n") : [];
  const meta = n ? m.meta.split("\n") : [];
  const datas: Uint8Array[] = new Array(n);
  for (let i = 0, at = 0; i < n; i++) {
    datas[i] = new Uint8Array(m.data, at, m.ends[i] - at);
    at = m.ends[i];
  }
  // A step that hands back a message's data unchanged (a UDF's "keep") hands back this very view.
  const inputs = datas.slice();
  const chain = chains.get(m.id);
  // Per group, the messages past this one are not looked at (a Publish fails at its first failing message).
  const limits = Uint32Array.from(m.groups);
  const groupOf = new Uint32Array(n);
  for (let g = 0, i = 0; g < m.groups.length; g++) for (; i < m.groups[g]; i++) groupOf[i] = g;
  const fail = (i: number, step: number, error: string) => {
    kinds[i] = FAILED;
    steps[i] = step;
    texts[i] = JSON.stringify(error);
    if (m.stop && i < limits[groupOf[i]]) limits[groupOf[i]] = i;
  };
  if (!chain) for (let i = 0; i < n; i++) fail(i, 0, "The transforms were replaced while the message waited");
  else {
    const udfs = compiled(chain, engine!);
    for (let s = 0; s < chain.steps.length; s++) {
      const step = chain.steps[s];
      const udf = udfs[s];
      for (let g = 0, from = 0; g < m.groups.length; from = m.groups[g++]) {
        const live: number[] = [];
        for (let i = from; i < limits[g]; i++) if (kinds[i] === MESSAGE) live.push(i);
        if (live.length === 0) continue;
        if (step.kind === "compression") {
          const c = compressionStep(nodeCompression, step);
          for (const i of live) {
            if (i >= limits[g]) break;
            const out = c.run({ data: datas[i], attributes: {} }, {});
            if (out.ok && out.message) datas[i] = out.message.data;
            else if (!out.ok) fail(i, s, out.error);
          }
          continue;
        }
        if (typeof udf === "string" || !udf) {
          for (const i of live) fail(i, s, udf ?? "no compiled function");
          continue;
        }
        const outs = udf.runBatch(live.map((i) => batchItem(datas[i], texts[i], meta[i])), m.stop);
        for (let k = 0; k < outs.length; k++) {
          const i = live[k];
          const o = outs[k];
          if (o.tag === "N") kinds[i] = FILTERED;
          else if (o.tag === "E") fail(i, s, o.error);
          else {
            texts[i] = o.attributes;
            datas[i] = o.data;
          }
        }
      }
    }
  }
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    if (i > limits[groupOf[i]]) kinds[i] = NOT_RUN;
    if (kinds[i] === MESSAGE && datas[i] === inputs[i]) kinds[i] = KEPT;
    if (kinds[i] === MESSAGE) bytes += datas[i].length;
    else if (kinds[i] !== FAILED && kinds[i] !== KEPT) texts[i] = "0";
  }
  const data = new Uint8Array(bytes);
  const ends = new Uint32Array(n);
  for (let i = 0, at = 0; i < n; i++) {
    if (kinds[i] === MESSAGE) {
      data.set(datas[i], at);
      at += datas[i].length;
    }
    ends[i] = at;
  }
  return { job: m.job, kinds, steps, texts: `[${texts.join(",")}]`, data: data.buffer, ends };
}

// Batches run one after another: a worker is busy with one job at a time (the pool sends no more).
self.onmessage = (event: MessageEvent<ToWorker>) => (engine ? handle(event.data) : void waiting.push(event.data));

function handle(m: ToWorker): void {
  if (m.t === "chain") chains.set(m.id, { steps: m.steps, compiled: null });
  else if (m.t === "drop") {
    for (const u of chains.get(m.id)?.compiled ?? []) if (u && typeof u !== "string") u.dispose();
    chains.delete(m.id);
  } else
    try {
      const r = run(m);
      self.postMessage(r, [r.data]);
    } catch (e) {
      // Never expected (every step's failure is the message's): the whole batch fails with it.
      const error = `The JavaScript engine failed: ${String(e).slice(0, 300)}`;
      const n = m.ends.length;
      const texts = `[${new Array(n).fill(JSON.stringify(error)).join(",")}]`;
      self.postMessage({ job: m.job, kinds: new Uint8Array(n).fill(FAILED), steps: new Uint8Array(n), texts, data: new ArrayBuffer(0), ends: new Uint32Array(n) } satisfies FromWorker);
    }
}

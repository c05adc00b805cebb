// Start-up time with a data dir full of retained messages: fills a data dir (in process, through
// the broker and the SQLite store: N messages on one topic, one subscription that never reads
// them), then times `bun src/main.ts --data-dir DIR` from spawn to the ready line, a few times,
// beside the same start on an empty data dir and in memory.
//
//   bun bench/startup/retained.ts [--messages 1000000] [--bytes 100] [--runs 3] [--dir DIR] [--keep]
//
// The fill is skipped when DIR already holds a filled data dir (--keep leaves it for the next run).
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Broker } from "../../src/core/broker.ts";
import { setLogLevel } from "../../src/runtime/log.ts";
import { SqliteStore } from "../../src/persistence/sqlite-store.ts";
import { SwitchableClock } from "../../src/runtime/switchable-clock.ts";
import { ROOT } from "../lib/server.ts";

const TOPIC = "projects/bench/topics/retained";
const SUB = "projects/bench/subscriptions/retained";

function args() {
  const a = process.argv.slice(2);
  const get = (k: string, d: string) => (a.includes(k) ? a[a.indexOf(k) + 1] ?? d : d);
  return {
    messages: Number(get("--messages", "1000000")),
    bytes: Number(get("--bytes", "100")),
    runs: Number(get("--runs", "3")),
    dir: get("--dir", ""),
    keep: a.includes("--keep"),
  };
}

const dirBytes = (dir: string) => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
const mb = (b: number) => (b / 2 ** 20).toFixed(0);

/** Publishes `n` messages of `bytes` random bytes (with one attribute) in batches of 1,000. */
function fill(dir: string, n: number, bytes: number): void {
  const t0 = performance.now();
  const store = SqliteStore.open(dir);
  if (store.heldMessages >= n) {
    console.log(`data dir already holds ${store.heldMessages} messages; not filling`);
    store.close();
    return;
  }
  const broker = new Broker({ clock: new SwitchableClock("system"), store });
  broker.topics.create({ name: TOPIC, labels: {} });
  broker.subscriptions.create({ name: SUB, topic: TOPIC } as Parameters<Broker["subscriptions"]["create"]>[0]);
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  for (let done = 0; done < n; ) {
    const k = Math.min(1000, n - done);
    broker.topics.publish(TOPIC, Array.from({ length: k }, (_, i) => ({ data, attributes: { i: String(done + i) } })));
    done += k;
  }
  store.close();
  console.log(`filled ${n} messages of ${bytes} B in ${((performance.now() - t0) / 1000).toFixed(1)} s; data dir ${mb(dirBytes(dir))} MiB`);
}

/** Spawn → ready line, in ms; also the server's own "read in" figure and its RSS once ready. */
async function timeStart(extra: string[]): Promise<{ readyMs: number; readMs: number | null; rssMB: number | null }> {
  const t0 = performance.now();
  const child = Bun.spawn([process.execPath, "src/main.ts", "--host-port", "127.0.0.1:0", ...extra], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  let text = "";
  const dec = new TextDecoder();
  const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
  for await (const chunk of child.stdout) {
    text += dec.decode(chunk, { stream: true });
    if (/Server started, listening on \d+/.test(text)) break;
  }
  const readyMs = performance.now() - t0;
  clearTimeout(timer);
  if (!/Server started/.test(text)) throw new Error(`no ready line: ${text}${await new Response(child.stderr).text()}`);
  const rss = /VmRSS:\s+(\d+) kB/.exec(await Bun.file(`/proc/${child.pid}/status`).text().catch(() => ""));
  const read = /read in (\d+) ms/.exec(text);
  child.kill("SIGTERM");
  await child.exited;
  return { readyMs, readMs: read ? Number(read[1]) : null, rssMB: rss ? Number(rss[1]) / 1024 : null };
}

async function series(label: string, extra: string[], runs: number): Promise<void> {
  const rows = [];
  for (let i = 0; i < runs; i++) rows.push(await timeStart(extra));
  const ready = rows.map((r) => r.readyMs).sort((a, b) => a - b);
  const med = ready[Math.floor(ready.length / 2)];
  const read = rows.map((r) => r.readMs).filter((x) => x !== null) as number[];
  const rss = rows.map((r) => r.rssMB ?? 0);
  console.log(
    `${label.padEnd(34)} ready ${med.toFixed(0).padStart(6)} ms (runs ${ready.map((x) => x.toFixed(0)).join(", ")})` +
      (read.length ? `, store read ${read.join("/")} ms` : "") +
      `, RSS ${Math.max(...rss).toFixed(0)} MiB`,
  );
}

async function main(): Promise<void> {
  setLogLevel("warn");
  const o = args();
  const dir = o.dir || mkdtempSync(join(tmpdir(), "pse-retained-"));
  const empty = mkdtempSync(join(tmpdir(), "pse-empty-"));
  try {
    fill(dir, o.messages, o.bytes);
    await series("in memory", [], o.runs);
    await series("empty --data-dir", ["--data-dir", empty], o.runs);
    await series(`--data-dir, ${o.messages} retained`, ["--data-dir", dir], o.runs);
  } finally {
    rmSync(empty, { recursive: true, force: true });
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

await main();

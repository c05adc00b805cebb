// The scenario runner behind `bun bench/run.ts [scenario…]` (bench/run.ts says the options).
import { join } from "node:path";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { startServer, remoteServer, ROOT, type ServerHandle } from "./server.ts";
import { environment, envText, finish, notes, table, writeReport, row, type Ctx, type Row } from "./report.ts";
import { sleep } from "./stats.ts";
import { waitForQuiet } from "./monitor.ts";
import { ALIASES, SCENARIOS } from "../scenarios/index.ts";

interface Opts {
  scenarios: string[]; target: string | null; server: "ours" | "reference" | "pstest"; quick: boolean;
  duration: number | null; smol: boolean; ceiling: number | null; repeat: number | null; serverArgs: string[];
  root: string | null; wrap: string[]; out: string | null;
  /** Each scenario runs once per store: "memory" (default) and/or "data-dir" (a fresh --data-dir per server). */
  stores: Store[];
}
type Store = "memory" | "data-dir";

function usage(msg?: string): never {
  if (msg) console.error(msg);
  console.error(`usage: bun bench/run.ts [${Object.keys(SCENARIOS).join("|")}]… [--target host:port] [--server ours|reference|pstest] [--quick] [--duration s] [--smol] [--ceiling msg/s] [--repeat n] [--server-arg ARG]… [--root DIR] [--server-wrap "CMD ARG…"] [--out STEM] [--stores memory,data-dir]
       bun bench/run.ts compare <git-ref> [scenario…] [--rounds n] [--quick]
       bun bench/run.ts sizing [--cpus 1,2] [--mem 256M,512M,1G] [--quick]`);
  process.exit(2);
}

function parse(argv: string[]): Opts {
  const o: Opts = { scenarios: [], target: null, server: "ours", quick: false, duration: null, smol: false, ceiling: null, repeat: null, serverArgs: [], root: null, wrap: [], out: null, stores: ["memory"] };
  const num = (v: string | undefined, name: string) => {
    const n = Number(v);
    if (!v || !Number.isFinite(n) || n <= 0) usage(`${name} needs a positive number`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--target") o.target = argv[++i] ?? usage("--target needs host:port");
    else if (a === "--server") {
      const v = argv[++i];
      if (v !== "ours" && v !== "reference" && v !== "pstest") usage("--server is ours, reference or pstest");
      o.server = v;
    } else if (a === "--quick") o.quick = true;
    else if (a === "--smol") o.smol = true;
    else if (a === "--duration") o.duration = num(argv[++i], a);
    else if (a === "--ceiling") o.ceiling = num(argv[++i], a);
    else if (a === "--repeat") o.repeat = Math.round(num(argv[++i], a));
    else if (a === "--server-arg") o.serverArgs.push(argv[++i] ?? usage("--server-arg needs a value"));
    else if (a === "--root") o.root = argv[++i] ?? usage("--root needs a directory");
    else if (a === "--server-wrap") o.wrap = (argv[++i] ?? usage("--server-wrap needs a command")).split(/\s+/).filter(Boolean);
    else if (a === "--out") o.out = argv[++i] ?? usage("--out needs a file stem");
    else if (a === "--stores") {
      const v = (argv[++i] ?? "").split(",").filter(Boolean);
      if (!v.length || v.some((x) => x !== "memory" && x !== "data-dir")) usage("--stores is a list of memory and data-dir");
      o.stores = v as Store[];
    }
    else if (a === "-h" || a === "--help") usage();
    else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else {
      const name = ALIASES[a] ?? a;
      if (!SCENARIOS[name]) usage(`unknown scenario ${a}`);
      o.scenarios.push(name);
    }
  }
  if (!o.scenarios.length) o.scenarios = Object.keys(SCENARIOS);
  return o;
}

function stamp() { return new Date().toISOString().replace(/[:]/g, "").replace(/\..*/, ""); }

/** Upper bound for one scenario, so a wedged server cannot hang the run. */
function budgetMs(name: string, o: Opts): number {
  const d = o.duration ?? 0;
  if (name === "soak") return (d || (o.quick ? 60 : 300)) * 1000 + 300_000;
  return (o.quick ? 240_000 : 900_000) + d * 1000 * 12;
}

export async function main(argv: string[]) {
  const o = parse(argv);
  const label = o.target ? "target" : o.server + (o.smol ? "-smol" : "");
  const stem = o.out ?? `${stamp()}-${label}${o.quick ? "-quick" : ""}`;
  const dir = join(ROOT, "bench/results");
  const rows: Row[] = [];
  let env: ReturnType<typeof environment> | null = null;
  let ceiling = o.ceiling;
  const t0 = performance.now();
  mkdirSync(dir, { recursive: true });

  for (const name of o.scenarios) for (const store of o.stores) {
    const durable = store === "data-dir";
    const tag = durable ? " [data-dir]" : "";
    console.log(`\n== ${name}${tag} (${label}${o.quick ? ", quick" : ""})`);
    // The host may be shared: wait (bounded) for other load to pass, and say if it did not.
    const busy = await waitForQuiet(o.quick ? 20_000 : 60_000);
    if (busy != null && busy >= 25) console.log(`  host busy (${busy.toFixed(0)} % CPU from other processes); figures will be noisy — see "other CPU%"`);
    // A fresh data dir per server: every run starts from an empty disk state.
    const dataDir = durable ? mkdtempSync(join(tmpdir(), "pse-bench-data-")) : null;
    let server: ServerHandle;
    try {
      server = o.target ? remoteServer(o.target)
        : await startServer({ kind: o.server, smol: o.smol, args: [...o.serverArgs, ...(dataDir ? ["--data-dir", dataDir] : [])], root: o.root ?? undefined, wrap: o.wrap, logFile: join(dir, `${stem}.${name}${durable ? ".data-dir" : ""}.server.log`) });
    } catch (e: any) {
      console.error(`  cannot start server: ${e.message}`);
      rows.push(failRow(name, `server start: ${e.message}`));
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      continue;
    }
    env ??= environment(server, argv);
    const ctx: Ctx = { server, target: server.target, quick: o.quick, duration: o.duration, ceiling, repeat: o.repeat,
      log: (m) => console.log(`  ${m}`), dataDir };
    const budget = budgetMs(name, o);
    try {
      const mod = await import(SCENARIOS[name]!);
      const out: Row[] = await Promise.race([
        mod.run(ctx),
        sleep(budget).then(() => { throw new Error(`scenario exceeded its ${budget / 1000} s budget`); }),
      ]);
      const hwm = server.peakRssBytes();
      for (const r of out) {
        if (hwm != null) r.extra.serverLifetimePeakRssMB = hwm / 2 ** 20;
        r.variant += tag;
        if (durable) r.config.store = "data-dir";
        rows.push(finish(r));
      }
      console.log(table(out));
    } catch (e: any) {
      console.error(`  FAILED: ${e?.stack ?? e}`);
      rows.push(failRow(name, String(e?.message ?? e)));
    }
    ceiling = ctx.ceiling;
    const code = server.exited();
    if (code !== null) {
      console.error(`  server exited during ${name} with code ${code}`);
      rows.push(failRow(name, `server exited with code ${code}`));
    }
    await server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }

  if (!env) env = environment(remoteServer(o.target ?? "none"), argv);
  const text = [`pubsub-emulator bench — ${label}${o.quick ? " (quick)" : ""}, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    envText(env), "", table(rows), "", notes(rows)].join("\n");
  console.log("\n" + text);
  writeReport(dir, stem, env, rows, text, { ceiling });
  console.log(`\nwritten: bench/results/${stem}.{json,txt}`);
  process.exit(rows.some((r) => r.pass === false) ? 1 : 0);
}

function failRow(scenario: string, why: string): Row {
  return row({ scenario, variant: "FAILED", pass: false, criterion: why, errors: 1, errorKinds: { [why.slice(0, 120)]: 1 },
    resources: { wallS: 0, server: { peakRssBytes: null, peakHeapBytes: null, cpuPct: null, fdsEnd: null, fdsPeak: null }, client: { peakRssBytes: 0, peakHeapBytes: 0, cpuPct: 0 }, machine: { busyPct: null, otherPct: null, loadavg1: 0 } } });
}

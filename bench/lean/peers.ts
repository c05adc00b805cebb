/**
 * Ours beside the do-nothing reference relay and Go's pstest, driven by the lean generator in
 * the same run: per round every server once (fresh), the order rotating; per server the median
 * msg/s and server µs/msg, and the median of the per-round ratios to pstest.
 *
 *   bun bench/lean/peers.ts [publish|e2e …] [--rounds 3] [--duration 4] [--batch 1000] [--procs 2]
 *       [--root DIR]   # also a second "ours" from another checkout (e.g. a worktree of main), as "base"
 *       [--grpc-servers lean,grpc-js]   # "ours" once per gRPC server (--grpc-server), as ours-lean, ours-grpc-js
 *       [--no-peers]   # without the reference relay and pstest: ours against --root only
 */
import { run, type LeanResult } from "./load.ts";

const argv = process.argv.slice(2);
const at = (f: string) => { const i = argv.indexOf(f); return i >= 0 ? argv[i + 1] : undefined; };
const modes = argv.filter((a) => a === "publish" || a === "e2e") as ("publish" | "e2e")[];
const rounds = Number(at("--rounds") ?? 3);
const root = at("--root");
const variants = at("--grpc-servers")?.split(",").filter(Boolean);
const servers: { name: string; kind: "ours" | "reference" | "pstest"; root?: string; args?: string[] }[] = [
  ...(root ? [{ name: "base", kind: "ours" as const, root }] : []),
  ...(variants ? variants.map((v) => ({ name: `ours-${v}`, kind: "ours" as const, args: ["--grpc-server", v] })) : [{ name: "ours", kind: "ours" as const }]),
  ...(process.argv.includes("--no-peers") ? [] : [{ name: "reference", kind: "reference" as const }, { name: "pstest", kind: "pstest" as const }]),
];
/** What the last column divides by: the other checkout, or the last gRPC server named. */
const base = root ? "base" : variants ? `ours-${variants.at(-1)}` : null;
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN; };

for (const mode of modes.length ? modes : (["publish", "e2e"] as const)) {
  const rows: Record<string, LeanResult[]> = {};
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < servers.length; i++) {
      const s = servers[(i + r) % servers.length]!;
      const res = await run({ mode, server: s.kind, root: s.root, serverArgs: s.args, procs: Number(at("--procs") ?? 2), duration: Number(at("--duration") ?? 4), warmup: 1,
        batch: Number(at("--batch") ?? 1000), bytes: 1024, inflight: 4, json: false, clientWrap: [] });
      (rows[s.name] ??= [])[r] = res;
      console.log(`  r${r + 1} ${mode} ${s.name.padEnd(9)} ${Math.round(res.msgsPerSec)} msg/s, server ${res.serverUsPerMsg?.toFixed(2)} µs/msg, client ${res.clientUsPerMsg?.toFixed(2)} µs/msg, errors ${res.errors}`);
    }
  }
  console.log(`\n${mode}, batches of ${at("--batch") ?? 1000}, ${rounds} rounds:`);
  console.log(`server     msg/s (median)  server µs/msg (median)  msg/s ÷ pstest  µs/msg ÷ pstest${base ? `  µs/msg ÷ ${base}` : ""}  (ratios: median of per-round ratios)`);
  for (const s of servers) {
    const xs = rows[s.name]!;
    const ratio = (to: string, f: (x: LeanResult) => number | null) => (rows[to] ? median(xs.map((x, r) => (f(x) ?? NaN) / (f(rows[to]![r]!) ?? NaN))) : NaN);
    console.log(`${s.name.padEnd(13)} ${Math.round(median(xs.map((x) => x.msgsPerSec))).toLocaleString("en-US").padStart(14)}  ${median(xs.map((x) => x.serverUsPerMsg ?? NaN)).toFixed(2).padStart(22)}  ` +
      `${ratio("pstest", (x) => x.msgsPerSec).toFixed(2).padStart(14)}  ${ratio("pstest", (x) => x.serverUsPerMsg).toFixed(2).padStart(15)}${base ? ratio(base, (x) => x.serverUsPerMsg).toFixed(2).padStart(15) : ""}`);
  }
}
process.exit(0);

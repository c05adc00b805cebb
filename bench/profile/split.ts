/**
 * Splits a `bun --cpu-prof` profile of the server into layers by the self time of each sample's
 * function: HTTP/2 (Bun's node:http2 and net, or our own: src/grpc/h2/ and the raw front), gRPC (grpc-js, or our src/grpc/call/), codecs (our hand-written ones,
 * protobufjs, proto-loader), the RPC table and the broker (src/rpc, src/core), other of our code,
 * and the rest. A native frame counts in its caller's layer (allocation and the GC it triggers too). Prints the split (shares of the samples: the sampler
 * takes none while the thread waits, so a share is of busy time) and the top functions.
 *
 *   bun bench/profile/split.ts PROFILE.cpuprofile [--top 25] [--json]
 */
import { readFileSync } from "node:fs";

interface Frame { functionName: string; url: string; lineNumber: number }
interface Node { id: number; callFrame: Frame; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

export const LAYERS = ["HTTP/2 + sockets", "gRPC layer", "codecs", "RPC table + broker", "other ours", "runtime / GC / native", "idle"] as const;
type Layer = (typeof LAYERS)[number];

export function layerOf(f: Frame): Layer {
  const u = f.url;
  const n = f.functionName;
  if (n === "(idle)") return "idle";
  if (n === "(garbage collector)" || n === "(program)" || n === "(root)") return "runtime / GC / native";
  if (u.includes("/src/grpc/h2/") || u.includes("/src/server/raw-front.ts")) return "HTTP/2 + sockets";
  if (u.includes("@grpc/grpc-js") || u.includes("/src/grpc/call/")) return "gRPC layer";
  if (u.includes("protobufjs") || u.includes("@grpc/proto-loader") || u.includes("@protobufjs") || u.includes("/src/grpc/codec/")) return "codecs";
  if (/node:(http2|net|stream|_stream|events|internal\/streams|internal\/http2|buffer)/.test(u) || /^node:/.test(u) || u.startsWith("internal:")) return "HTTP/2 + sockets";
  if (u.includes("/src/core/") || u.includes("/src/rpc/")) return "RPC table + broker";
  if (u.includes("/src/")) return "other ours";
  return "runtime / GC / native";
}

export function split(p: Profile): { total: number; layers: Record<Layer, number>; top: { name: string; layer: Layer; us: number }[] } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // A native frame (no url: Buffer.concat, the http2 flush, utf8Slice, allocation and the GC it
  // triggers) counts in the layer of the JS code that called it.
  const layerAt = (id: number): Layer => {
    for (let n = byId.get(id); n; n = byId.get(parent.get(n.id) ?? -1)) {
      if (n.callFrame.url || n.callFrame.functionName.startsWith("(")) return layerOf(n.callFrame);
    }
    return "runtime / GC / native";
  };
  const layers = Object.fromEntries(LAYERS.map((l) => [l, 0])) as Record<Layer, number>;
  const fns = new Map<string, { layer: Layer; us: number }>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i]!)!;
    // One sample = one unit of busy time: JSC takes no samples while the thread waits, so the gap
    // to the next sample holds idle time and must not weight the frame.
    const dt = 1;
    const layer = layerAt(node.id);
    layers[layer] += dt;
    total += dt;
    const f = node.callFrame;
    const key = f.url ? `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/(node_modules|src)\//, "$1/")}:${f.lineNumber + 1}` : `${f.functionName} (native)`;
    const e = fns.get(key) ?? { layer, us: 0 };
    e.us += dt;
    fns.set(key, e);
  }
  const top = [...fns].map(([name, e]) => ({ name, ...e })).sort((a, b) => b.us - a.us);
  return { total, layers, top };
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: bun bench/profile/split.ts PROFILE.cpuprofile [--top N] [--json]");
    process.exit(2);
  }
  const topAt = process.argv.indexOf("--top");
  const n = topAt > 0 ? Number(process.argv[topAt + 1]) : 25;
  const r = split(JSON.parse(readFileSync(file, "utf8")));
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ ...r, top: r.top.slice(0, n) }));
  } else {
    const busy = r.total - r.layers.idle;
    console.log(`${file}: ${busy} samples`);
    for (const l of LAYERS) if (l !== "idle") console.log(`  ${l.padEnd(24)} ${((100 * r.layers[l]) / busy).toFixed(1).padStart(5)} % of busy`);
    console.log("top self time:");
    for (const t of r.top.filter((t) => t.layer !== "idle").slice(0, n)) console.log(`  ${((100 * t.us) / busy).toFixed(1).padStart(5)} %  ${t.layer.padEnd(22)} ${t.name}`);
  }
}

/**
 * `bun run build:release`: the single binary for each platform a release supports, cross-compiled
 * from this machine (`bun build --compile --target=…`; Bun fetches each target's runtime from the
 * npm registry, `@oven/bun-<os>-<arch>`, on first use and caches it). The flags are the `build`
 * script's: --splitting keeps lazily imported modules off the start path, and the checkpoint worker
 * and the UDF pool's worker are further entry points, which the compiled binary finds under its
 * embedded root.
 *
 *   bun run build:release                 all five, into dist/
 *   bun run build:release linux-arm64 …   only those
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
/** Release name → Bun's --target. */
export const TARGETS = {
  "linux-x64": "bun-linux-x64",
  "linux-arm64": "bun-linux-arm64",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
  "windows-x64": "bun-windows-x64",
} as const;
export type ReleaseTarget = keyof typeof TARGETS;

export const binaryName = (t: ReleaseTarget) => `pubsub-emulator-${t}${t.startsWith("windows") ? ".exe" : ""}`;

export async function buildRelease(targets: ReleaseTarget[], outDir = join(ROOT, "dist")): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const built: string[] = [];
  for (const t of targets) {
    const outfile = join(outDir, binaryName(t));
    const entries = ["src/main.ts", "src/persistence/checkpoint-worker.ts", "src/transforms/udf-worker.ts"];
    const cmd = ["bun", "build", "--compile", `--target=${TARGETS[t]}`, "--bytecode", "--format=esm", "--minify", "--splitting", ...entries, "--outfile", outfile];
    const p = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    if (code !== 0) throw new Error(`bun build --target=${TARGETS[t]} failed (exit ${code}):\n${out}${err}`);
    built.push(outfile);
    console.log(`${binaryName(t)}: ${(Bun.file(outfile).size / 2 ** 20).toFixed(0)} MiB`);
  }
  return built;
}

if (import.meta.main) {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((a) => !(a in TARGETS));
  if (unknown.length) {
    console.error(`build:release: unknown target ${unknown.join(", ")}; the targets are ${Object.keys(TARGETS).join(", ")}`);
    process.exit(2);
  }
  await buildRelease((asked.length ? asked : Object.keys(TARGETS)) as ReleaseTarget[]);
}

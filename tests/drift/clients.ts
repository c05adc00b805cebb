/**
 * The official clients' own copies of the Pub/Sub API, fetched with the registries' ordinary
 * clients: the npm package's bundled .proto files (`npm pack`), and the Go module's compiled
 * file descriptors (tests/drift/go, `go run`). Pinned versions by default (CI installs and checks
 * these); PUBSUB_DRIFT_CLIENTS=latest takes the newest published ones, the check before a release.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const PINNED = { npm: "6.3.2", go: "v2.9.0" } as const;
const NPM_PACKAGE = "@google-cloud/pubsub";
const GO_MODULE = "cloud.google.com/go/pubsub/v2";
const GO_DIR = resolve(import.meta.dir, "go");
const CACHE = resolve(import.meta.dir, "../../node_modules/.cache/pubsub-drift");

export const wantLatest = () => process.env.PUBSUB_DRIFT_CLIENTS === "latest";

function run(cmd: string[], cwd: string, timeoutMs: number): Buffer {
  let r: ReturnType<typeof Bun.spawnSync>;
  try {
    r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", timeout: timeoutMs, env: { ...process.env, GOFLAGS: "-mod=mod" } });
  } catch (e) {
    throw new Error(`${cmd[0]} is not installed; the drift guard needs it: ${(e as Error).message}`);
  }
  if (!r.success) throw new Error(`${cmd.join(" ")} failed (exit ${r.exitCode}): ${r.stderr?.toString().slice(0, 2000) ?? ""}`);
  return r.stdout as Buffer;
}

/** The npm package unpacked; its protos are under `build/protos`. Returns [folder, version]. */
export function npmCopy(): [string, string] {
  const spec = `${NPM_PACKAGE}@${wantLatest() ? "latest" : PINNED.npm}`;
  const version = wantLatest() ? run(["npm", "view", spec, "version"], tmpdir(), 60_000).toString().trim() : PINNED.npm;
  const dir = join(CACHE, `npm-${version}`);
  if (!existsSync(join(dir, "package/build/protos/google/pubsub/v1/pubsub.proto"))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    run(["npm", "pack", `${NPM_PACKAGE}@${version}`, "--silent"], dir, 120_000);
    const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new Error(`npm pack left no tarball in ${dir}`);
    run(["tar", "xzf", tgz], dir, 60_000);
  }
  return [join(dir, "package/build/protos"), version];
}

let goCached: [Buffer, string] | null = null;

/** The Go module's FileDescriptorSet of pubsub.proto and schema.proto (once per run). Returns [bytes, version]. */
export function goCopy(): [Buffer, string] {
  return (goCached ??= fetchGo());
}

function fetchGo(): [Buffer, string] {
  if (!wantLatest()) return [run(["go", "run", "."], GO_DIR, 300_000), PINNED.go];
  const dir = mkdtempSync(join(tmpdir(), "drift-go-"));
  try {
    cpSync(GO_DIR, dir, { recursive: true });
    run(["go", "get", `${GO_MODULE}@latest`], dir, 300_000);
    const version = run(["go", "list", "-m", "-f", "{{.Version}}", GO_MODULE], dir, 60_000).toString().trim();
    return [run(["go", "run", "."], dir, 300_000), version];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

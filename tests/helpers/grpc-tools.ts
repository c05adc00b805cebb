/** grpcurl and grpc-health-probe, as .ci/grpc-tools installs them; a test that needs one fails when it is missing. */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

function goBin(): string {
  const go = Bun.which("go") ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : null);
  const gopath = go ? Bun.spawnSync([go, "env", "GOPATH"]).stdout.toString().trim().split(":")[0] : "";
  return join(gopath || join(homedir(), "go"), "bin");
}

export function grpcTool(name: "grpcurl" | "grpc-health-probe"): string {
  const found = Bun.which(name) ?? join(goBin(), name);
  if (!existsSync(found)) throw new Error(`${name} is not installed (looked on PATH and in $(go env GOPATH)/bin): run .ci/grpc-tools`);
  return found;
}

export interface ToolRun {
  code: number;
  out: string;
}

/** Runs a tool to its end, killed after `ms` (its own timeouts come first). */
export async function runTool(cmd: string[], ms = 20_000): Promise<ToolRun> {
  const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", stdin: "ignore", timeout: ms });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out: out + err };
}

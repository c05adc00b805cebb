import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// In a fresh process: other test files load client libraries that change protobufjs's globals.
test("protos/descriptor.json is current with the vendored .proto files (run bun protos/generate.ts)", () => {
  const committed = readFileSync(new URL("../../protos/descriptor.json", import.meta.url), "utf8");
  const fresh = Bun.spawnSync(["bun", "protos/generate.ts", "--stdout"], { cwd: new URL("../..", import.meta.url).pathname });
  expect(fresh.exitCode).toBe(0);
  expect(committed === fresh.stdout.toString()).toBe(true);
});

test("protos/grpc-services.json is current with the vendored .proto files (run bun protos/generate.ts)", () => {
  const committed = readFileSync(new URL("../../protos/grpc-services.json", import.meta.url), "utf8");
  const fresh = Bun.spawnSync(["bun", "protos/generate.ts", "--grpc-services"], { cwd: new URL("../..", import.meta.url).pathname });
  expect(fresh.exitCode).toBe(0);
  expect(committed === fresh.stdout.toString()).toBe(true);
});

test("protos/types/ is current with the vendored .proto files (run bun protos/generate.ts)", () => {
  const root = new URL("../..", import.meta.url).pathname;
  const fresh = mkdtempSync(join(tmpdir(), "proto-types-"));
  try {
    const r = Bun.spawnSync(["bun", "protos/generate.ts", "--types", fresh], { cwd: root });
    expect(r.exitCode).toBe(0);
    const committedDir = join(root, "protos/types");
    const files = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).sort();
    expect(files(fresh)).toEqual(files(committedDir));
    const stale = files(fresh).filter((f) => readFileSync(join(fresh, f), "utf8") !== readFileSync(join(committedDir, f), "utf8"));
    expect(stale).toEqual([]);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});

import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";

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

/**
 * Compiled Protocol Buffer schemas as users make them: .proto files compiled by the real protoc
 * (`--include_imports --descriptor_set_out`) into a FileDescriptorSet. CI installs protoc
 * (.ci/protoc); a machine without it fails here, loudly.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Writes `files` (path → text) to a scratch folder and compiles `entry` with protoc. */
export function protoc(files: Record<string, string>, entry: string, { includeImports = true } = {}): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "protoc-"));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const out = join(dir, "set.pb");
    const args = ["protoc", "-I", dir, ...(includeImports ? ["--include_imports"] : []), `--descriptor_set_out=${out}`, entry];
    let r: ReturnType<typeof Bun.spawnSync>;
    try {
      r = Bun.spawnSync(args, { stdout: "pipe", stderr: "pipe", timeout: 20_000 });
    } catch (e) {
      throw new Error(`protoc is not installed (CI installs it with .ci/protoc): ${(e as Error).message}`);
    }
    if (!r.success) throw new Error(`protoc failed: ${r.stderr?.toString() ?? ""}`);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two files: shop/order.proto imports common/money.proto (another package). */
export const SHOP_FILES = {
  "common/money.proto": 'syntax = "proto3";\npackage shop.common;\nmessage Money {\n  string currency = 1;\n  int64 units = 2;\n}\n',
  "shop/order.proto":
    'syntax = "proto3";\npackage shop;\nimport "common/money.proto";\nmessage Order {\n  string id = 1;\n  shop.common.Money total = 2;\n  repeated string items = 3;\n}\n',
};

/** SHOP_FILES with a field added to Order (a compatible revision). */
export const SHOP_FILES_V2 = {
  ...SHOP_FILES,
  "shop/order.proto": SHOP_FILES["shop/order.proto"].replace("  repeated string items = 3;\n", "  repeated string items = 3;\n  string note = 4;\n"),
};

/** SHOP_FILES with Order.total's type changed (an incompatible revision). */
export const SHOP_FILES_BAD = {
  ...SHOP_FILES,
  "shop/order.proto": SHOP_FILES["shop/order.proto"].replace("  shop.common.Money total = 2;", "  string total = 2;"),
};

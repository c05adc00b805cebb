/**
 * Writes protos/descriptor.json: the vendored protos parsed once, so the server loads a JSON
 * descriptor (~35 ms) instead of parsing .proto files (~120 ms) at every start. Run after
 * refreshing the protos: `bun protos/generate.ts`. tests/codec/descriptor.test.ts checks it is current.
 * It writes grpc-services.json too (reflection.ts): the standard gRPC services' descriptors, and
 * types/: the served messages and services as TypeScript types (proto-loader-gen-types, with the
 * proto-loader options the server decodes with), which src/rpc/contract.ts types the RPCs by.
 */
import protobuf from "protobufjs";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { grpcServicesJson } from "./reflection.ts";

const ENTRY_POINTS = ["google/pubsub/v1/pubsub.proto", "google/pubsub/v1/schema.proto", "google/iam/v1/iam_policy.proto"];
const DIR = fileURLToPath(new URL(".", import.meta.url));

export function descriptorJson(entryPoints: readonly string[] = ENTRY_POINTS): string {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => DIR + target;
  root.loadSync([...entryPoints], { keepCase: false });
  return JSON.stringify(root.toJSON()) + "\n";
}

/** The Bigtable data API the Bigtable subscriptions write through, and the table admin API whose GetTable tells a table's column families and row key schema (a client, never served). */
export const BIGTABLE_ENTRY_POINTS = ["google/bigtable/v2/bigtable.proto", "google/bigtable/admin/v2/bigtable_table_admin.proto"];

/** Writes the TypeScript types of the served protos into `out` (types/, or a scratch folder to compare with it). */
export function generateTypes(out: string): void {
  const bin = fileURLToPath(new URL("../node_modules/.bin/proto-loader-gen-types", import.meta.url));
  // The options src/grpc/proto.ts decodes with: camelCase, longs as numbers, enums as names, oneofs named.
  const args = ["--longs", "Number", "--enums", "String", "--oneofs", "-I", ".", "-O", resolve(out), ...ENTRY_POINTS];
  // From DIR, so each file names its .proto by its path in protos/, the same on every machine.
  const r = Bun.spawnSync([bin, ...args], { cwd: DIR, stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`proto-loader-gen-types failed: ${r.stderr.toString()}`);
}

if (import.meta.main) {
  if (process.argv.includes("--stdout")) process.stdout.write(descriptorJson());
  else if (process.argv.includes("--grpc-services")) process.stdout.write(grpcServicesJson(DIR));
  else if (process.argv.includes("--types")) generateTypes(process.argv[process.argv.indexOf("--types") + 1]!);
  else {
    await Bun.write(DIR + "descriptor.json", descriptorJson());
    await Bun.write(DIR + "bigtable-descriptor.json", descriptorJson(BIGTABLE_ENTRY_POINTS));
    await Bun.write(DIR + "grpc-services.json", grpcServicesJson(DIR));
    rmSync(DIR + "types", { recursive: true, force: true });
    generateTypes(DIR + "types");
    console.log("wrote protos/descriptor.json, protos/bigtable-descriptor.json, protos/grpc-services.json and protos/types/");
  }
}

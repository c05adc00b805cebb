/**
 * Writes protos/descriptor.json: the vendored protos parsed once, so the server loads a JSON
 * descriptor (~35 ms) instead of parsing .proto files (~120 ms) at every start. Run after
 * refreshing the protos: `bun protos/generate.ts`. tests/codec/descriptor.test.ts checks it is current.
 * It writes grpc-services.json too (reflection.ts): the standard gRPC services' descriptors.
 */
import protobuf from "protobufjs";
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

if (import.meta.main) {
  if (process.argv.includes("--stdout")) process.stdout.write(descriptorJson());
  else if (process.argv.includes("--grpc-services")) process.stdout.write(grpcServicesJson(DIR));
  else {
    await Bun.write(DIR + "descriptor.json", descriptorJson());
    await Bun.write(DIR + "bigtable-descriptor.json", descriptorJson(BIGTABLE_ENTRY_POINTS));
    await Bun.write(DIR + "grpc-services.json", grpcServicesJson(DIR));
    console.log("wrote protos/descriptor.json, protos/bigtable-descriptor.json and protos/grpc-services.json");
  }
}

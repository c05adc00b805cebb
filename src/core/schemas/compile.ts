/**
 * A schema definition compiled once per revision into a checker of message data: Avro through
 * avsc (./avro.ts), Protocol Buffers through protobufjs (./protobuf.ts). No parser is written here.
 */
import { bounded, invalid } from "../errors.ts";
import type { CompiledSchema } from "./compiled.ts";

/** The real service's cap on a definition. */
export const MAX_DEFINITION_BYTES = 300 * 1024;

/** Compiles `definition`, or throws INVALID_ARGUMENT naming what is wrong with it. */
export function compileSchema(type: string | undefined, definition: string | undefined): CompiledSchema {
  if (type !== "AVRO" && type !== "PROTOCOL_BUFFER") {
    throw invalid(`Invalid schema.type: ${bounded(String(type ?? "TYPE_UNSPECIFIED"))}. It must be AVRO or PROTOCOL_BUFFER.`);
  }
  const def = definition ?? "";
  if (!def.trim()) throw invalid("schema.definition is required.");
  const bytes = new TextEncoder().encode(def).length;
  if (bytes > MAX_DEFINITION_BYTES) {
    throw invalid(`schema.definition is ${bytes} bytes, but the maximum allowed is ${MAX_DEFINITION_BYTES}.`);
  }
  // avsc and protobufjs load with the first schema, not with the server (≈ 25 ms and 20 MB at start).
  if (type === "AVRO") return (require("./avro.ts") as typeof import("./avro.ts")).compileAvro(def);
  return (require("./protobuf.ts") as typeof import("./protobuf.ts")).compileProtobuf(def);
}

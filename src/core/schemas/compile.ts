/**
 * A schema definition compiled once per revision into a checker of message data: Avro through
 * avsc (./avro.ts), Protocol Buffers through protobufjs (./protobuf.ts). No parser is written here.
 */
import { bounded, invalid } from "../errors.ts";
import type { CompiledSchema } from "./compiled.ts";

/** The real service's cap on a definition. */
export const MAX_DEFINITION_BYTES = 300 * 1024;

/** Schema.compiled_proto_schema (googleapis 2026-08): a root message and a compiled FileDescriptorSet. */
export interface CompiledProtoInput {
  rootMessage?: string;
  compiledBytes?: Uint8Array | null;
}

/** Whether a request set compiled_proto_schema (an empty message counts as unset, as proto3 sees it). */
export const hasCompiledProto = (c: CompiledProtoInput | null | undefined): c is CompiledProtoInput =>
  !!c && (!!c.rootMessage || !!c.compiledBytes?.length);

/**
 * Compiles `definition` or `compiled` (one of them), or throws INVALID_ARGUMENT naming what is
 * wrong with it.
 */
export function compileSchema(type: string | undefined, definition: string | undefined, compiled?: CompiledProtoInput | null): CompiledSchema {
  if (type !== "AVRO" && type !== "PROTOCOL_BUFFER") {
    throw invalid(`Invalid schema.type: ${bounded(String(type ?? "TYPE_UNSPECIFIED"))}. It must be AVRO or PROTOCOL_BUFFER.`);
  }
  if (hasCompiledProto(compiled)) return compileCompiledProto(type, definition, compiled);
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

function compileCompiledProto(type: string, definition: string | undefined, c: CompiledProtoInput): CompiledSchema {
  if (definition) throw invalid("schema.definition and schema.compiled_proto_schema are mutually exclusive; set one of them.");
  if (type !== "PROTOCOL_BUFFER") throw invalid(`schema.compiled_proto_schema requires schema.type PROTOCOL_BUFFER, not ${type}.`);
  if (!c.rootMessage) throw invalid("schema.compiled_proto_schema.root_message is required.");
  const bytes = c.compiledBytes;
  if (!bytes?.length) throw invalid("schema.compiled_proto_schema.compiled_bytes is required.");
  if (bytes.length > MAX_DEFINITION_BYTES) {
    throw invalid(`schema.compiled_proto_schema.compiled_bytes is ${bytes.length} bytes, but the maximum allowed is ${MAX_DEFINITION_BYTES}.`);
  }
  return (require("./protobuf.ts") as typeof import("./protobuf.ts")).compileDescriptorSet(c.rootMessage, bytes);
}

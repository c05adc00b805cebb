/**
 * The vendored protos as one pre-parsed descriptor (protos/descriptor.json, written by
 * protos/generate.ts): the one module that reads it. gRPC loads it, the REST mapping and the
 * served-methods table walk it, the UTF-8 check and provisioning use it as a protobufjs Root.
 */
import type protobuf from "protobufjs";
import json from "../../protos/descriptor.json" with { type: "json" };

export const descriptor = json;

let root: protobuf.Root | undefined;

/**
 * The descriptor as a resolved protobufjs Root, built on first use: protobufjs itself is loaded
 * then, not at start (a server that never needs it pays nothing).
 */
export function protoRoot(): protobuf.Root {
  if (root) return root;
  // A literal require, so the compiled binary bundles it (a computed one is looked up at run time).
  const pb: typeof protobuf = require("protobufjs");
  return (root = pb.Root.fromJSON(json as protobuf.INamespace).resolveAll() as protobuf.Root);
}

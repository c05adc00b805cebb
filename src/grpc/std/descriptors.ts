/**
 * protos/grpc-services.json (written by protos/reflection.ts) at run time, read on the first call
 * of a standard service, never at start: the FileDescriptorProto bytes of every served .proto
 * file, what names each file declares, and the health and reflection messages' protobufjs types.
 */
import type protobuf from "protobufjs";

interface Json {
  files: { name: string; dependency: string[]; bytes: string }[];
  symbols: [string, number][];
  messages: string[];
  extensions: [string, number, number][];
  types: protobuf.INamespace;
}

export interface ProtoFile {
  readonly name: string;
  readonly bytes: Buffer;
  readonly dependencies: readonly ProtoFile[];
}

export interface Descriptors {
  files: ReadonlyMap<string, ProtoFile>;
  /** Fully-qualified name (no leading dot) → the file that declares it. */
  symbols: ReadonlyMap<string, ProtoFile>;
  messages: ReadonlySet<string>;
  /** Extended message → extension number → the file that declares the extension. */
  extensions: ReadonlyMap<string, ReadonlyMap<number, ProtoFile>>;
  type(name: string): protobuf.Type;
}

let loaded: Descriptors | null = null;

function load(): Descriptors {
  // Literal requires, so the compiled binary bundles both (a computed one is looked up at run time).
  const json: Json = require("../../../protos/grpc-services.json");
  const pb: typeof protobuf = require("protobufjs");
  const byIndex: ProtoFile[] = [];
  const files = new Map<string, ProtoFile>();
  // The generator writes files in dependency order, so each file's dependencies are already made.
  for (const f of json.files) {
    const file = { name: f.name, bytes: Buffer.from(f.bytes, "base64"), dependencies: f.dependency.map((d) => files.get(d)!) };
    byIndex.push(file);
    files.set(f.name, file);
  }
  const extensions = new Map<string, Map<number, ProtoFile>>();
  for (const [extendee, n, i] of json.extensions) {
    const numbers = extensions.get(extendee) ?? new Map<number, ProtoFile>();
    numbers.set(n, byIndex[i]!);
    extensions.set(extendee, numbers);
  }
  const root = pb.Root.fromJSON(json.types);
  const types = new Map<string, protobuf.Type>();
  return {
    files,
    symbols: new Map(json.symbols.map(([name, i]) => [name, byIndex[i]!])),
    messages: new Set(json.messages),
    extensions,
    type: (name) => {
      let t = types.get(name);
      if (!t) types.set(name, (t = root.lookupType(name)));
      return t;
    },
  };
}

export function descriptors(): Descriptors {
  return (loaded ??= load());
}

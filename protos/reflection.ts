/**
 * Builds protos/grpc-services.json for the standard gRPC services (src/grpc/std/): the
 * FileDescriptorProto bytes server reflection answers with, one per vendored .proto file, made by
 * protobufjs' descriptor extension; an index of every symbol and extension to its file; and the
 * health and reflection protos as protobufjs JSON, for their codecs. Written by generate.ts.
 */
import protobuf from "protobufjs";
import descriptorExt from "protobufjs/ext/descriptor";
import { readFileSync } from "node:fs";

/** What the emulator serves: the Pub/Sub protos and the standard services' own. */
export const REFLECTED_ENTRY_POINTS = [
  "google/pubsub/v1/pubsub.proto",
  "google/pubsub/v1/schema.proto",
  "google/iam/v1/iam_policy.proto",
  "grpc/health/v1/health.proto",
  "grpc/reflection/v1/reflection.proto",
  "grpc/reflection/v1alpha/reflection.proto",
];
const STD_ENTRY_POINTS = REFLECTED_ENTRY_POINTS.slice(3);

interface SourceFile {
  name: string;
  pkg: string;
  imports: string[];
  syntax: "proto2" | "proto3";
}

// protobufjs' descriptor types, as plain objects (the extension's typings are loose).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Desc = any;

const ext = descriptorExt as unknown as { FileDescriptorProto: protobuf.Type & { create(o: object): Desc } };

/** protoc's json_name of a field: `foo_bar` → `fooBar`. */
const jsonName = (field: string) => field.replace(/_(.)/g, (_m, c: string) => c.toUpperCase()).replace(/_/g, "");

/** protoc's name for a map field's entry type: `foo_bar` → `FooBarEntry`. */
function mapEntryName(field: string): string {
  return field.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase()).replace(/_/g, "") + "Entry";
}

/**
 * What protobufjs' toDescriptor leaves unlike protoc, fixed in place: the extensions it mirrors
 * into the extended type (their names hold dots), type names relative to the scope (protoc writes
 * them fully qualified), map entries named `Field` instead of `FieldEntry` (descriptor validators
 * refuse those), proto3 `optional` not flagged, no json_name, and extension and reserved ranges
 * that end where protobufjs ends them, inclusive (a descriptor's end is exclusive).
 */
function fixMessage(m: Desc, type: protobuf.Type): void {
  m.field = m.field.filter((f: Desc) => !f.name.includes("."));
  for (const r of [...m.extensionRange, ...m.reservedRange]) r.end += 1;
  for (const f of m.field) {
    if (f.proto3_optional) f.proto3Optional = true;
    f.jsonName = jsonName(f.name);
    const field = type.fields[f.name]!;
    const entry = m.nestedType.find((n: Desc) => n.name === f.typeName && n.options?.mapEntry);
    if (entry) {
      f.typeName = entry.name = mapEntryName(f.name);
      const value = entry.field[1];
      if (field.resolvedType) value.typeName = field.resolvedType.fullName;
      f.typeName = `${type.fullName}.${f.typeName}`;
    } else if (field.resolvedType) f.typeName = field.resolvedType.fullName;
  }
  for (const n of m.nestedType) {
    const nested = type.nested?.[n.name];
    if (nested instanceof protobuf.Type) fixMessage(n, nested);
  }
}

/** Each file parsed into one shared root, in dependency order, its objects tagged with its name. */
function parseAll(dir: string, entryPoints: readonly string[]): { root: protobuf.Root; files: SourceFile[] } {
  const root = new protobuf.Root();
  const files: SourceFile[] = [];
  const seen = new Set<string>();
  const load = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const source = readFileSync(dir + name, "utf8");
    (protobuf.parse as unknown as { filename: string }).filename = name;
    const parsed = protobuf.parse(source, root, { keepCase: true });
    for (const i of parsed.imports ?? []) load(i);
    files.push({ name, pkg: parsed.package ?? "", imports: parsed.imports ?? [], syntax: /^\s*syntax\s*=\s*"proto3"/m.test(source) ? "proto3" : "proto2" });
  };
  entryPoints.forEach(load);
  root.resolveAll();
  return { root, files };
}

type Top = protobuf.Type | protobuf.Enum | protobuf.Service | protobuf.Field;

function topLevel(ns: protobuf.NamespaceBase, out: Map<string, Top[]>): Map<string, Top[]> {
  for (const o of ns.nestedArray) {
    if (o instanceof protobuf.Type || o instanceof protobuf.Enum || o instanceof protobuf.Service || o instanceof protobuf.Field) {
      const list = out.get(o.filename!) ?? [];
      list.push(o);
      out.set(o.filename!, list);
    } else if (o instanceof protobuf.Namespace) topLevel(o, out);
  }
  return out;
}

function fileDescriptor(file: SourceFile, objects: Top[]): Desc {
  const d = ext.FileDescriptorProto.create({ name: file.name, dependency: file.imports, syntax: file.syntax === "proto3" ? "proto3" : undefined });
  if (file.pkg) d.package = file.pkg;
  for (const o of objects) {
    if (o instanceof protobuf.Type) {
      const m = o.toDescriptor(file.syntax);
      fixMessage(m, o);
      d.messageType.push(m);
    }
    else if (o instanceof protobuf.Enum) d.enumType.push(o.toDescriptor());
    else if (o instanceof protobuf.Service) d.service.push(o.toDescriptor());
    else {
      const x = o.toDescriptor(file.syntax);
      if (o.resolvedType) x.typeName = o.resolvedType.fullName;
      d.extension.push(x);
    }
  }
  // File options are left out: protobufjs keeps them per package, not per file.
  return d;
}

/** Every name file_containing_symbol may be asked for (messages, fields, oneofs, enums and their values, services, methods, extensions). */
function indexSymbols(d: Desc, file: number, symbols: [string, number][], messages: string[]): void {
  const add = (name: string) => symbols.push([name, file]);
  const message = (m: Desc, scope: string) => {
    const name = `${scope}${m.name}`;
    add(name);
    messages.push(name);
    for (const f of m.field) add(`${name}.${f.name}`);
    for (const o of m.oneofDecl) add(`${name}.${o.name}`);
    for (const e of m.enumType) enumeration(e, `${name}.`);
    for (const n of m.nestedType) message(n, `${name}.`);
  };
  const enumeration = (e: Desc, scope: string) => {
    add(`${scope}${e.name}`);
    for (const v of e.value) add(`${scope}${v.name}`);
  };
  const pkg = d.package ? `${d.package}.` : "";
  for (const m of d.messageType) message(m, pkg);
  for (const e of d.enumType) enumeration(e, pkg);
  for (const s of d.service) {
    add(`${pkg}${s.name}`);
    for (const m of s.method) add(`${pkg}${s.name}.${m.name}`);
  }
  for (const x of d.extension) add(`${pkg}${x.name}`);
}

/** The JSON the server loads on the first reflection or health call. */
export function grpcServicesJson(dir: string): string {
  const { root, files } = parseAll(dir, REFLECTED_ENTRY_POINTS);
  const objects = topLevel(root, new Map());
  const symbols: [string, number][] = [];
  const messages: string[] = [];
  const extensions: [string, number, number][] = [];
  const encoded = files.map((file, i) => {
    const d = fileDescriptor(file, objects.get(file.name) ?? []);
    indexSymbols(d, i, symbols, messages);
    for (const x of d.extension) extensions.push([x.extendee.replace(/^\./, ""), x.number, i]);
    return { name: file.name, dependency: file.imports, bytes: Buffer.from(ext.FileDescriptorProto.encode(d).finish()).toString("base64") };
  });
  // The health and reflection messages for their codecs (camelCase, as proto-loader's shapes are).
  const std = new protobuf.Root();
  std.resolvePath = (_origin, target) => dir + target;
  std.loadSync(STD_ENTRY_POINTS, { keepCase: false });
  return JSON.stringify({ files: encoded, symbols, messages, extensions, types: std.toJSON() }) + "\n";
}

/**
 * The Pub/Sub API surface (package google.pubsub.v1) as a set of lines — messages, fields with
 * their numbers, enums and their values, services and RPCs — read from .proto files (protobufjs)
 * or from a compiled FileDescriptorSet (protobufjs' descriptor types), so that two copies of
 * the API compare line by line.
 */
import { existsSync } from "node:fs";
import protobuf from "protobufjs";
import descriptor from "protobufjs/ext/descriptor/index.js";

export const PACKAGE = "google.pubsub.v1";

/** Parses Pub/Sub's .proto files (`dir` holds google/...; imports resolved from `dir`, then `fallback`). */
export function surfaceOfProtos(dir: string, fallback: string, files = ["google/pubsub/v1/pubsub.proto", "google/pubsub/v1/schema.proto"]): Set<string> {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => {
    const local = `${dir}/${target}`;
    return existsSync(local) ? local : `${fallback}/${target}`;
  };
  root.loadSync(files, { keepCase: true });
  return surfaceOfRoot(root);
}

export function surfaceOfRoot(root: protobuf.Root): Set<string> {
  const out = new Set<string>();
  const ns = root.lookup(PACKAGE);
  if (!(ns instanceof protobuf.Namespace)) return out;
  const walk = (n: protobuf.ReflectionObject, prefix: string) => {
    const name = `${prefix}.${n.name}`;
    if (n instanceof protobuf.Type) {
      out.add(`message ${name}`);
      for (const f of n.fieldsArray) out.add(`field ${name}.${f.name} = ${f.id}`);
      for (const inner of n.nestedArray) walk(inner, name);
    } else if (n instanceof protobuf.Enum) {
      out.add(`enum ${name}`);
      for (const [v, num] of Object.entries(n.values)) out.add(`enum value ${name}.${v} = ${num}`);
    } else if (n instanceof protobuf.Service) {
      out.add(`service ${name}`);
      for (const m of n.methodsArray) out.add(`rpc ${name}.${m.name}`);
    }
  };
  for (const n of ns.nestedArray) walk(n, PACKAGE);
  return out;
}

type Desc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Decodes a binary FileDescriptorSet (protobufjs' descriptor types: no parser written here). */
export function decodeSet(bytes: Uint8Array): Desc {
  return (descriptor as unknown as { FileDescriptorSet: protobuf.Type }).FileDescriptorSet.decode(bytes) as unknown as Desc;
}

export function encodeSet(set: Desc): Uint8Array {
  const T = (descriptor as unknown as { FileDescriptorSet: protobuf.Type }).FileDescriptorSet;
  return T.encode(T.fromObject(set)).finish();
}

export function surfaceOfSet(set: Desc): Set<string> {
  const out = new Set<string>();
  const enumLines = (e: Desc, prefix: string) => {
    const name = `${prefix}.${e.name}`;
    out.add(`enum ${name}`);
    for (const v of e.value ?? []) out.add(`enum value ${name}.${v.name} = ${v.number ?? 0}`);
  };
  const message = (m: Desc, prefix: string) => {
    const name = `${prefix}.${m.name}`;
    out.add(`message ${name}`);
    for (const f of m.field ?? []) out.add(`field ${name}.${f.name} = ${f.number}`);
    // Map entries are synthetic messages: .proto text has none (protobufjs folds them into the map field).
    for (const inner of m.nestedType ?? []) if (!inner.options?.mapEntry) message(inner, name);
    for (const e of m.enumType ?? []) enumLines(e, name);
  };
  for (const file of set.file ?? []) {
    if (file.package !== PACKAGE) continue;
    for (const m of file.messageType ?? []) message(m, PACKAGE);
    for (const e of file.enumType ?? []) enumLines(e, PACKAGE);
    for (const s of file.service ?? []) {
      out.add(`service ${PACKAGE}.${s.name}`);
      for (const m of s.method ?? []) out.add(`rpc ${PACKAGE}.${s.name}.${m.name}`);
    }
  }
  return out;
}

/** What `client` knows that `vendored` lacks, sorted; empty when the vendored protos are current. */
export function missingFrom(vendored: ReadonlySet<string>, client: ReadonlySet<string>): string[] {
  return [...client].filter((line) => !vendored.has(line)).sort();
}

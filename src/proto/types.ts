/**
 * The message and enum types of protos/descriptor.json, indexed for the JSON mapping: each field
 * with its lowerCamelCase JSON name, its proto (snake_case) name, its kind and resolved type.
 * Built lazily per type, so start-up pays only for the types a request touches.
 */
import { descriptor } from "./descriptor.ts";

export type ScalarType =
  | "double" | "float" | "int32" | "int64" | "uint32" | "uint64" | "sint32" | "sint64"
  | "fixed32" | "fixed64" | "sfixed32" | "sfixed64" | "bool" | "string" | "bytes";

const SCALARS = new Set<string>([
  "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
  "fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes",
]);

export interface FieldInfo {
  /** lowerCamelCase: the JSON name and the proto-loader key. */
  readonly name: string;
  /** snake_case, as in the .proto file; error messages name fields this way. */
  readonly protoName: string;
  readonly kind: "scalar" | "enum" | "message";
  /** Scalar type name, or the fully-qualified enum or message name. */
  readonly type: string;
  readonly repeated: boolean;
  /** Set for map fields: the key's scalar type (the value is described by kind/type). */
  readonly mapKey?: ScalarType;
  /** Proto3 scalars without presence drop their default value, as the binary encoding does. */
  readonly presence: boolean;
  /** The oneof this field belongs to, if any. */
  readonly oneof?: string;
}

export interface MessageType {
  readonly fullName: string;
  /** By JSON name and by proto name: both are accepted on input. */
  readonly byName: ReadonlyMap<string, FieldInfo>;
  readonly fields: readonly FieldInfo[];
}

export interface EnumType {
  readonly fullName: string;
  readonly byName: ReadonlyMap<string, number>;
  readonly byNumber: ReadonlyMap<number, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>;

/**
 * Every namespace, message and enum node by fully-qualified name: built on first use, since the
 * server imports this module at start (transforms/ai-inference.ts → well-known.ts) and most runs
 * never read a type through it.
 */
let indexed: Map<string, Node> | undefined;
function nodes(): Map<string, Node> {
  if (indexed) return indexed;
  const out = (indexed = new Map<string, Node>());
  (function index(node: Node, prefix: string): void {
    for (const [name, child] of Object.entries((node.nested ?? {}) as Record<string, Node>)) {
      const full = prefix ? `${prefix}.${name}` : name;
      out.set(full, child);
      index(child, full);
    }
  })(descriptor as Node, "");
  return out;
}

/** camelCase → snake_case, the inverse of protoc's JSON-name rule for the names these protos use. */
export const snakeCase = (camel: string) => camel.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());

/** Resolves a type reference as protobuf scoping does: innermost enclosing scope first. */
function resolve(ref: string, scope: string): string {
  if (ref.startsWith(".")) return ref.slice(1);
  const parts = scope.split(".");
  for (let i = parts.length; i >= 0; i--) {
    const candidate = [...parts.slice(0, i), ref].join(".");
    if (nodes().has(candidate)) return candidate;
  }
  throw new Error(`type ${ref} referenced from ${scope} is not in the descriptor`);
}

const messages = new Map<string, MessageType>();
const enums = new Map<string, EnumType>();

export function messageType(fullName: string): MessageType {
  let t = messages.get(fullName);
  if (t) return t;
  const node = nodes().get(fullName);
  if (!node?.fields) throw new Error(`${fullName} is not a message in the descriptor`);
  const oneofOf = new Map<string, string>();
  for (const [oneof, o] of Object.entries((node.oneofs ?? {}) as Record<string, { oneof: string[] }>)) {
    for (const f of o.oneof) oneofOf.set(f, oneof);
  }
  const fields: FieldInfo[] = [];
  const byName = new Map<string, FieldInfo>();
  for (const [name, f] of Object.entries(node.fields as Record<string, Node>)) {
    const scalar = SCALARS.has(f.type);
    const type = scalar ? f.type : resolve(f.type, fullName);
    const kind = scalar ? "scalar" : nodes().get(type)?.values ? "enum" : "message";
    const oneof = oneofOf.get(name);
    const info: FieldInfo = {
      name,
      protoName: snakeCase(name),
      kind,
      type,
      repeated: f.rule === "repeated",
      mapKey: f.keyType,
      // Messages, oneof members and `optional` scalars (a synthetic oneof) have presence.
      presence: kind === "message" || oneof !== undefined,
      oneof: f.options?.proto3_optional ? undefined : oneof,
    };
    fields.push(info);
    byName.set(name, info);
    byName.set(info.protoName, info);
  }
  t = { fullName, byName, fields };
  messages.set(fullName, t);
  return t;
}

export function enumType(fullName: string): EnumType {
  let t = enums.get(fullName);
  if (t) return t;
  const values = nodes().get(fullName)?.values as Record<string, number> | undefined;
  if (!values) throw new Error(`${fullName} is not an enum in the descriptor`);
  t = {
    fullName,
    byName: new Map(Object.entries(values)),
    byNumber: new Map(Object.entries(values).map(([k, v]) => [v, k])),
  };
  enums.set(fullName, t);
  return t;
}

/** The fully-qualified name of a method's request or response type. */
export const resolveType = (ref: string, scope: string) => resolve(ref, scope);

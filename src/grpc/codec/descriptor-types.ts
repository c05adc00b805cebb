/**
 * The descriptor JSON's message types as field tables the descriptor codec (descriptor-codec.ts)
 * walks: built per type on first use, no code generated. What protobufjs would decide from the
 * same JSON is decided here the same way: fields in id order, enums by name and number, a map's
 * key and value, which oneof (real or proto3 `optional`) a field belongs to, and packing (proto3
 * files pack repeated scalars unless `packed: false`; proto2 ones only with `packed: true`).
 */
import { resolveIn } from "../../proto/subset.ts";

type Json = Record<string, unknown>;
interface FieldJson {
  type: string;
  id: number;
  rule?: string;
  keyType?: string;
  options?: Json;
}
interface Node {
  fields?: Record<string, FieldJson>;
  values?: Record<string, number>;
  nested?: Record<string, Node>;
  oneofs?: Record<string, { oneof: string[] }>;
  edition?: string;
  group?: boolean;
}

/** Scalar types and their wire types; a packable one is every scalar on wire type 0, 1 or 5. */
export const SCALAR_WIRE: Readonly<Record<string, number>> = {
  double: 1, float: 5, int32: 0, int64: 0, uint32: 0, uint64: 0, sint32: 0, sint64: 0,
  fixed32: 5, fixed64: 1, sfixed32: 5, sfixed64: 1, bool: 0, string: 2, bytes: 2,
};

export interface EnumInfo {
  /** Name → number (the first of aliases wins, as protobufjs's fromObject switch does). */
  byName: Map<string, number>;
  /** Number → name (the last alias wins, as protobufjs's valuesById). */
  byNumber: Map<number, string>;
  /** The first value: what a repeated enum's unknown name becomes in protobufjs's fromObject. */
  first: number;
}

export interface FieldInfo {
  name: string;
  /** Its place in MessageInfo.fields. */
  index: number;
  id: number;
  /** A scalar type name, "enum" or "message". */
  kind: string;
  repeated: boolean;
  /** map<string, V>: `kind` is V's. */
  map: boolean;
  packed: boolean;
  /** The wire type of one value (enum: 0, message: 2). */
  wire: number;
  /** The oneof it belongs to, real or synthetic (`_name` of a proto3 `optional` field). */
  oneof?: string;
  enumInfo?: EnumInfo;
  /** The message type, resolved on first use (types may refer to each other). */
  message?: () => MessageInfo;
  /** The field's snake_case name, as the UTF-8 error names it. */
  path: string;
  fullName: string;
}

export interface MessageInfo {
  fullName: string;
  /** By id, ascending: the order protobufjs encodes and converts in. */
  fields: FieldInfo[];
  byId: Map<number, FieldInfo>;
}

interface Entry {
  node: Node;
  edition: string;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every type and enum of one descriptor by full name, with the edition it is written in. */
function index(root: Node): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (n: Node, prefix: string, edition: string) => {
    for (const [k, v] of Object.entries(n.nested ?? {})) {
      const name = prefix ? `${prefix}.${k}` : k;
      const ed = v.edition ?? edition;
      if (v.fields || v.values) out.set(name, { node: v, edition: ed });
      walk(v, name, ed);
    }
  };
  walk(root, "", root.edition ?? "proto3");
  return out;
}

/** The message types of one descriptor JSON, each built once on first lookup. */
export class DescriptorTypes {
  private readonly entries: Map<string, Entry>;
  private readonly messages = new Map<string, MessageInfo>();
  private readonly enums = new Map<string, EnumInfo>();

  constructor(root: Json) {
    this.entries = index(root as Node);
  }

  /** A message type by full name (no leading dot). */
  message(name: string): MessageInfo {
    const done = this.messages.get(name);
    if (done) return done;
    const entry = this.entries.get(name);
    if (!entry?.node.fields) throw new Error(`descriptor has no message type ${name}`);
    if (entry.node.group) throw new Error(`descriptor codec: ${name} is a group`);
    const info: MessageInfo = { fullName: name, fields: [], byId: new Map() };
    this.messages.set(name, info);
    const oneofOf = new Map<string, string>();
    for (const [o, { oneof }] of Object.entries(entry.node.oneofs ?? {})) for (const f of oneof) oneofOf.set(f, o);
    for (const [fname, f] of Object.entries(entry.node.fields)) {
      if (f.rule === "required") throw new Error(`descriptor codec: ${name}.${fname} is required (proto2)`);
      if (f.keyType !== undefined && f.keyType !== "string") throw new Error(`descriptor codec: ${name}.${fname} has ${f.keyType} keys`);
      info.fields.push(this.field(name, entry.edition, fname, f, oneofOf.get(fname)));
    }
    info.fields.sort((a, b) => a.id - b.id);
    info.fields.forEach((f, i) => {
      f.index = i;
      info.byId.set(f.id, f);
    });
    return info;
  }

  private field(owner: string, edition: string, name: string, f: FieldJson, oneof: string | undefined): FieldInfo {
    const out: FieldInfo = {
      name, index: 0, id: f.id, kind: f.type, repeated: f.rule === "repeated", map: f.keyType !== undefined,
      packed: false, wire: 2, oneof, path: snake(name), fullName: `.${owner}.${name}`,
    };
    if (SCALAR_WIRE[f.type] !== undefined) out.wire = SCALAR_WIRE[f.type]!;
    else {
      const target = resolveIn(this.entries, owner, f.type);
      if (!target) throw new Error(`descriptor: ${owner} refers to unknown type ${f.type}`);
      const node = this.entries.get(target)!.node;
      if (node.values) {
        out.kind = "enum";
        out.wire = 0;
        out.enumInfo = this.enumInfo(target, node.values);
      } else {
        out.kind = "message";
        out.message = () => this.message(target);
      }
    }
    const packable = out.wire !== 2;
    const packedOption = f.options?.packed;
    out.packed = out.repeated && !out.map && packable && (packedOption === true || (packedOption !== false && edition === "proto3"));
    return out;
  }

  private enumInfo(name: string, values: Record<string, number>): EnumInfo {
    let info = this.enums.get(name);
    if (info) return info;
    const byName = new Map<string, number>();
    const byNumber = new Map<number, string>();
    for (const [k, v] of Object.entries(values)) {
      if (!byName.has(k)) byName.set(k, v);
      byNumber.set(v, k);
    }
    info = { byName, byNumber, first: Object.values(values)[0] ?? 0 };
    this.enums.set(name, info);
    return info;
  }
}

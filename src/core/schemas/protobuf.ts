/**
 * Protocol Buffer schemas: protobufjs parses the definition and decodes BINARY data; JSON data
 * is checked against the proto3 JSON mapping (field names, value kinds, enum names), strictly,
 * as the real service's parser rejects unknown fields.
 */
import protobuf from "protobufjs";
import { invalid } from "../errors.ts";
import { errorText, utf8Text, type CompiledSchema, type Encoding } from "./compiled.ts";

const MAX_DEPTH = 100;

export function compileProtobuf(definition: string): CompiledSchema {
  let parsed: protobuf.IParserResult;
  try {
    parsed = protobuf.parse(definition, { keepCase: true });
    parsed.root.resolveAll();
  } catch (e) {
    throw invalid(`Invalid Protocol Buffer schema definition: ${errorText(e)}`);
  }
  if (parsed.imports?.length || parsed.weakImports?.length) {
    throw invalid("Invalid Protocol Buffer schema definition: imports are not supported; define every type in the schema.");
  }
  const tops = topLevelTypes(parsed.root);
  if (tops.length !== 1) {
    throw invalid(
      `Invalid Protocol Buffer schema definition: it must define exactly one top-level message type, but it defines ${tops.length}.`,
    );
  }
  return new ProtobufSchema(tops[0]);
}

/**
 * A compiled_proto_schema: a FileDescriptorSet (protoc --include_imports --descriptor_set_out)
 * read by protobufjs' descriptor extension, every file into one Root, so types imported across
 * files resolve by their full names; `rootMessage` names the message the data must be.
 */
export function compileDescriptorSet(rootMessage: string, compiledBytes: Uint8Array): CompiledSchema {
  const at = "schema.compiled_proto_schema";
  let root: protobuf.Root;
  try {
    // The extension (descriptor.proto's types) loads with the first compiled schema.
    require("protobufjs/ext/descriptor");
    const fromDescriptor = (protobuf.Root as unknown as { fromDescriptor(d: Uint8Array): protobuf.Root }).fromDescriptor;
    root = fromDescriptor(new Uint8Array(compiledBytes.buffer, compiledBytes.byteOffset, compiledBytes.byteLength));
  } catch (e) {
    throw invalid(`Invalid ${at}.compiled_bytes: not a FileDescriptorSet whose files define every type they use (compile with protoc --include_imports): ${errorText(e)}`);
  }
  if (!root.files.length && !root.nestedArray.length) throw invalid(`Invalid ${at}.compiled_bytes: the FileDescriptorSet has no files.`);
  let type: protobuf.ReflectionObject | null = null;
  try {
    type = root.lookup(rootMessage.replace(/^\./, ""));
  } catch {
    type = null;
  }
  if (!(type instanceof protobuf.Type)) {
    throw invalid(`Invalid ${at}.root_message: "${errorText(rootMessage)}" is not a message type defined in compiled_bytes (use its full name, like "package.Message").`);
  }
  return new ProtobufSchema(type);
}

function topLevelTypes(ns: protobuf.NamespaceBase, out: protobuf.Type[] = []): protobuf.Type[] {
  for (const n of ns.nestedArray) {
    if (n instanceof protobuf.Type) out.push(n);
    else if (n instanceof protobuf.Namespace) topLevelTypes(n, out);
  }
  return out;
}

class ProtobufSchema implements CompiledSchema {
  private fieldMaps = new Map<protobuf.Type, Map<string, protobuf.Field>>();

  constructor(readonly type: protobuf.Type) {}

  check(data: Uint8Array, encoding: Encoding): string | null {
    if (encoding === "BINARY") {
      try {
        // A plain Uint8Array view: protobufjs's Buffer reader clamps a truncated string instead of failing.
        this.type.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        return null;
      } catch (e) {
        return errorText(e);
      }
    }
    const text = utf8Text(data);
    if (text === null) return "the data is not valid UTF-8 JSON";
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return errorText(e);
    }
    return this.checkMessage(this.type, value, this.type.name, 0);
  }

  /** Fields of the top-level message keep their number, name, type and label; only optional fields come and go. */
  canFollow(previous: CompiledSchema): string | null {
    if (!(previous instanceof ProtobufSchema)) return "a revision must keep the schema type";
    const before = previous.type.fieldsById;
    const after = this.type.fieldsById;
    for (const [id, old] of Object.entries(before)) {
      const now = after[Number(id)];
      if (!now) {
        if (old.required) return `the required field ${old.name} = ${id} may not be removed`;
        continue;
      }
      if (now.name !== old.name || now.type !== old.type || now.repeated !== old.repeated || now.required !== old.required || now.map !== old.map) {
        return `field ${old.name} = ${id} may not be changed`;
      }
    }
    for (const f of this.type.fieldsArray) if (!before[f.id] && f.required) return `the required field ${f.name} = ${f.id} may not be added`;
    return null;
  }

  private fields(type: protobuf.Type): Map<string, protobuf.Field> {
    let map = this.fieldMaps.get(type);
    if (!map) {
      map = new Map();
      for (const f of type.fieldsArray) {
        map.set(f.name, f);
        map.set(f.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), f);
      }
      this.fieldMaps.set(type, map);
    }
    return map;
  }

  private checkMessage(type: protobuf.Type, value: unknown, path: string, depth: number): string | null {
    if (depth > MAX_DEPTH) return `${path}: nested more than ${MAX_DEPTH} levels`;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return `${path}: expected a JSON object`;
    const fields = this.fields(type);
    const oneofs = new Map<string, string>();
    for (const key of Object.keys(value)) {
      const field = fields.get(key);
      if (!field) return `${path}: unknown field "${key.slice(0, 100)}"`;
      const v = (value as Record<string, unknown>)[key];
      if (v === null) continue;
      const group = field.partOf?.name;
      if (group) {
        if (oneofs.has(group)) return `${path}: fields ${oneofs.get(group)} and ${field.name} of oneof ${group} are both set`;
        oneofs.set(group, field.name);
      }
      const where = `${path}.${field.name}`;
      const problem = field.map
        ? this.checkMap(field, v, where, depth)
        : field.repeated
          ? Array.isArray(v)
            ? firstProblem(v, (item, i) => this.checkValue(field, item, `${where}[${i}]`, depth))
            : `${where}: expected a JSON array`
          : this.checkValue(field, v, where, depth);
      if (problem) return problem;
    }
    return null;
  }

  private checkMap(field: protobuf.Field, value: unknown, path: string, depth: number): string | null {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return `${path}: expected a JSON object (a map)`;
    const keyType = (field as unknown as protobuf.MapField).keyType;
    for (const [k, v] of Object.entries(value)) {
      if (keyType === "bool" ? k !== "true" && k !== "false" : keyType !== "string" && !/^-?\d+$/.test(k)) {
        return `${path}: invalid ${keyType} map key "${k.slice(0, 100)}"`;
      }
      const problem = this.checkValue(field, v, `${path}["${k.slice(0, 100)}"]`, depth);
      if (problem) return problem;
    }
    return null;
  }

  private checkValue(field: protobuf.Field, v: unknown, path: string, depth: number): string | null {
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) {
      const wkt = WELL_KNOWN_JSON.get(resolved.fullName);
      if (wkt) return wkt(v) ? null : `${path}: expected the JSON form of ${resolved.fullName.slice(1)}`;
      return this.checkMessage(resolved, v, path, depth + 1);
    }
    if (resolved instanceof protobuf.Enum) {
      const ok = typeof v === "string" ? Object.hasOwn(resolved.values, v) : Number.isInteger(v);
      return ok ? null : `${path}: expected a value of enum ${resolved.name}`;
    }
    return checkScalar(field.type, v) ? null : `${path}: expected a ${field.type} value`;
  }
}

/**
 * Well-known types have their own proto3 JSON forms (a compiled schema imports them from
 * google/protobuf/*.proto): Timestamp "1972-01-01T10:00:20.021Z", Duration "1.5s", wrappers their
 * scalar, Struct an object, Value anything, ListValue an array, FieldMask "a.b,c".
 */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;
const DURATION = /^-?\d{1,12}(\.\d{1,9})?s$/;
const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
const WELL_KNOWN_JSON = new Map<string, (v: unknown) => boolean>([
  [".google.protobuf.Timestamp", (v) => typeof v === "string" && TIMESTAMP.test(v)],
  [".google.protobuf.Duration", (v) => typeof v === "string" && DURATION.test(v)],
  [".google.protobuf.FieldMask", (v) => typeof v === "string"],
  [".google.protobuf.Struct", isObject],
  [".google.protobuf.Value", () => true],
  [".google.protobuf.ListValue", Array.isArray],
  [".google.protobuf.Empty", (v) => isObject(v) && Object.keys(v as object).length === 0],
  ...(["Double", "Float", "Int64", "UInt64", "Int32", "UInt32", "Bool", "String", "Bytes"] as const).map(
    (w): [string, (v: unknown) => boolean] => [`.google.protobuf.${w}Value`, (v) => checkScalar(w.toLowerCase(), v)],
  ),
]);

const INT = /^-?\d+$/;
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;
const INT32: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  sint32: [-(2 ** 31), 2 ** 31 - 1],
  sfixed32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  fixed32: [0, 2 ** 32 - 1],
};

/** The proto3 JSON mapping of scalars: 64-bit integers may be strings, floats may be "NaN"/"Infinity". */
function checkScalar(type: string, v: unknown): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "bool":
      return typeof v === "boolean";
    case "bytes":
      return typeof v === "string" && BASE64.test(v);
    case "double":
    case "float":
      return typeof v === "number" || (typeof v === "string" && (["NaN", "Infinity", "-Infinity"].includes(v) || Number.isFinite(Number(v))));
    case "int64":
    case "sint64":
    case "sfixed64":
    case "uint64":
    case "fixed64":
      return (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && INT.test(v));
    default: {
      const range = INT32[type];
      const n = typeof v === "string" && INT.test(v) ? Number(v) : v;
      return !!range && typeof n === "number" && Number.isInteger(n) && n >= range[0] && n <= range[1];
    }
  }
}

function firstProblem<T>(items: readonly T[], check: (item: T, i: number) => string | null): string | null {
  for (let i = 0; i < items.length; i++) {
    const p = check(items[i], i);
    if (p) return p;
  }
  return null;
}

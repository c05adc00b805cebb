/**
 * The part of the descriptor JSON one message type needs: the type and every type its fields
 * reach, at their full names, as a protobufjs INamespace. A method's codec is built from that
 * (≈ 1 ms) instead of the whole descriptor (≈ 15–20 ms of Root.fromJSON for some 150 types),
 * which the server's first RPC used to pay. Resource, behaviour and HTTP options are left out
 * (codecs never read them); a field's `packed` option is kept, since it changes the encoding.
 * Names resolve as protobufjs resolves them: a leading dot is absolute, anything else is looked
 * up from the referring type outwards.
 */

type Json = Record<string, unknown>;
interface Node {
  fields?: Record<string, Json & { type: string }>;
  values?: Json;
  nested?: Record<string, Node>;
  oneofs?: Json;
  [k: string]: unknown;
}

const SCALARS = new Set(["double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"]);

/** Every type and enum of the descriptor by full name (no leading dot). */
function index(root: Node): Map<string, Node> {
  const out = new Map<string, Node>();
  const walk = (n: Node, prefix: string) => {
    for (const [k, v] of Object.entries(n.nested ?? {})) {
      const name = prefix ? `${prefix}.${k}` : k;
      if (v.fields || v.values) out.set(name, v);
      walk(v, name);
    }
  };
  walk(root, "");
  return out;
}

const cache = new WeakMap<Node, Map<string, Node>>();

/** Resolves `ref` as seen from the type `from` (a full name), or null. */
export function resolveIn(types: ReadonlyMap<string, unknown>, from: string, ref: string): string | null {
  if (ref.startsWith(".")) return types.has(ref.slice(1)) ? ref.slice(1) : null;
  for (let scope = from; ; scope = scope.slice(0, Math.max(0, scope.lastIndexOf(".")))) {
    const name = scope ? `${scope}.${ref}` : ref;
    if (types.has(name)) return name;
    if (!scope) return null;
  }
}

/** A field as the codec needs it: everything but its options, less `packed`. */
function leanField(f: Json): Json {
  const { options, ...rest } = f;
  const packed = (options as Json | undefined)?.packed;
  return packed === undefined ? rest : { ...rest, options: { packed } };
}

/** A type or enum without its options; nested definitions kept only where `keep` says. */
function leanNode(n: Node, name: string, keep: Set<string>): Node {
  const out: Node = {};
  if (n.values) out.values = n.values;
  if (n.oneofs) out.oneofs = n.oneofs;
  if (n.fields) out.fields = Object.fromEntries(Object.entries(n.fields).map(([k, f]) => [k, leanField(f) as Json & { type: string }]));
  const nested = Object.entries(n.nested ?? {}).filter(([k]) => keep.has(`${name}.${k}`));
  if (nested.length) out.nested = Object.fromEntries(nested.map(([k, v]) => [k, leanNode(v, `${name}.${k}`, keep)]));
  return out;
}

/** The INamespace JSON holding `typeName` (a full name) and everything it reaches. */
export function subsetFor(root: Node, typeName: string): Json {
  let types = cache.get(root);
  if (!types) cache.set(root, (types = index(root)));
  const keep = new Set<string>();
  const todo = [typeName];
  while (todo.length) {
    const name = todo.pop()!;
    if (keep.has(name)) continue;
    const node = types.get(name);
    if (!node) throw new Error(`descriptor has no type ${name}`);
    keep.add(name);
    for (const f of Object.values(node.fields ?? {})) {
      if (SCALARS.has(f.type)) continue;
      const target = resolveIn(types, name, f.type);
      if (!target) throw new Error(`descriptor: ${name} refers to unknown type ${f.type}`);
      todo.push(target);
    }
    // A nested type is only reachable through its parent: keep every enclosing type too.
    for (let i = name.lastIndexOf("."); i > 0; i = name.lastIndexOf(".", i - 1)) {
      if (types.has(name.slice(0, i))) todo.push(name.slice(0, i));
    }
  }
  const out: Json = {};
  for (const name of keep) {
    const parts = name.split(".");
    // Types nested in a kept type are written with it.
    if (parts.some((_, i) => i > 0 && i < parts.length && keep.has(parts.slice(0, i).join(".")))) continue;
    let ns = out;
    for (const p of parts.slice(0, -1)) {
      const nested = (ns.nested ??= {}) as Json;
      ns = (nested[p] ??= {}) as Json;
    }
    ((ns.nested ??= {}) as Json)[parts.at(-1)!] = leanNode(types.get(name)!, name, keep);
  }
  return out;
}

/** The full name of a method's request or response type, from the service's JSON. */
export function methodType(root: Node, service: string, method: string, side: "request" | "response"): string {
  let types = cache.get(root);
  if (!types) cache.set(root, (types = index(root)));
  let ns: Node | undefined = root;
  for (const p of service.split(".")) ns = ns?.nested?.[p];
  const m = (ns as { methods?: Record<string, { requestType: string; responseType: string }> } | undefined)?.methods?.[method];
  if (!m) throw new Error(`descriptor has no method ${service}.${method}`);
  const ref = side === "request" ? m.requestType : m.responseType;
  const found = resolveIn(types, service, ref);
  if (!found) throw new Error(`descriptor: ${service}.${method} refers to unknown type ${ref}`);
  return found;
}

/**
 * HTTP → request message, as google/api/http.proto specifies: path variables set their (possibly
 * nested) fields, the body fills the whole request (`body: "*"`) or one field, and the remaining
 * fields come from query parameters (`?pageSize=10&options.requestedPolicyVersion=3`). System
 * parameters (`alt`, `$alt`, `prettyPrint`, `fields`, `key`…) steer the response instead.
 */
import { WELL_KNOWN } from "../proto/well-known.ts";
import { badField, echo, messageFromJson, setField, type JsonOptions } from "../proto/json.ts";
import { messageType, type FieldInfo } from "../proto/types.ts";
import type { Route } from "./routes.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export interface ResponseOptions extends JsonOptions {
  pretty: boolean;
}

/** Standard query parameters of Google APIs that bind no request field. */
const SYSTEM = new Set([
  "alt", "prettyPrint", "fields", "key", "access_token", "oauth_token", "quotaUser", "userIp",
  "callback", "upload_protocol", "uploadType", "pp", "trace", "requestReason",
]);

const isSystem = (name: string) => name.startsWith("$") || SYSTEM.has(name);

const truthy = (v: string | null) => v !== null && v !== "false" && v !== "0";

/** The response options the system parameters ask for. */
export function responseOptions(query: URLSearchParams): ResponseOptions {
  const alt = query.get("$alt") ?? query.get("alt") ?? "json";
  const pretty = query.get("$prettyPrint") ?? query.get("prettyPrint") ?? query.get("pp");
  return { numericEnums: /enum-encoding=int/.test(alt), pretty: pretty !== null && truthy(pretty) };
}

/** Walks a dotted field path from the request type, creating the messages on the way. */
function resolvePath(typeName: string, req: Obj, path: string, what: string): { target: Obj; field: FieldInfo } {
  const names = path.split(".");
  let type = typeName;
  let target = req;
  for (let i = 0; i < names.length; i++) {
    const field = messageType(type).byName.get(names[i]);
    const leaf = i === names.length - 1;
    if (!field || (!leaf && (field.kind !== "message" || field.repeated || WELL_KNOWN.has(field.type)))) {
      throw badField(path, `Invalid JSON payload received. Unknown name ${echo(path)}: Cannot bind ${what}. Field '${names[i].slice(0, 64)}' could not be found in request message.`);
    }
    if (leaf) return { target, field };
    target = (target[field.name] ??= {});
    type = field.type;
  }
  throw new Error("unreachable");
}

/**
 * Builds the request for `route` from the bound path variables, the query and the parsed body
 * (`undefined` when the request had none).
 */
export function transcode(route: Route, bound: Map<string, string>, query: URLSearchParams, body: unknown): Obj {
  let req: Obj = {};
  if (route.body === "*") {
    if (body !== undefined) req = messageFromJson(route.requestType, body);
  } else if (route.body && body !== undefined) {
    const field = messageType(route.requestType).byName.get(route.body)!;
    setField(req, field, body, field.protoName);
  }
  for (const [name, values] of groupQuery(query)) {
    if (route.body === "*") {
      throw badField(name, `Invalid JSON payload received. Unknown name ${echo(name)}: Cannot bind query parameter. This method takes every field in the request body.`);
    }
    const { target, field } = resolvePath(route.requestType, req, name, "query parameter");
    if (field.kind === "message" && !WELL_KNOWN.has(field.type)) {
      throw badField(name, `Invalid JSON payload received. Query parameter '${name.slice(0, 64)}' names a message; give its fields instead.`);
    }
    setField(target, field, field.repeated ? values : values[values.length - 1], field.protoName, true);
  }
  for (const [path, value] of bound) {
    const { target, field } = resolvePath(route.requestType, req, path, "path variable");
    target[field.name] = value;
  }
  return req;
}

/** Non-system query parameters, repeated ones gathered. */
function groupQuery(query: URLSearchParams): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of query) {
    if (isSystem(k)) continue;
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

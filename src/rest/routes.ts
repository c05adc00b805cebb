/**
 * The REST routes, derived from the `google.api.http` annotations of the served services in
 * protos/descriptor.json, plus the http rules of Pub/Sub's service config
 * (protos/google/pubsub/v1/pubsub_v1.yaml), which bind the IAM mixin to Pub/Sub's resources (a
 * GET for getIamPolicy, as gcloud sends it). The mixin's own `{resource=**}` bindings stay
 * served after them, as the Node client's REST mode uses those.
 */
import serviceConfig from "../../protos/google/pubsub/v1/pubsub_v1.yaml";
import { SERVICES, serviceMethods, type ServiceName } from "../rpc/services.ts";
import { matchTemplate, parseTemplate, type PathTemplate } from "./path-template.ts";
import { resolveType } from "../proto/types.ts";

export interface Route {
  /** The RPC table key, "Service.Method". */
  readonly key: string;
  readonly httpMethod: string;
  readonly template: PathTemplate;
  /** "" (no body), "*" (the whole request) or the request field the body fills. */
  readonly body: string;
  readonly requestType: string;
  readonly responseType: string;
}

interface HttpRule {
  get?: string;
  put?: string;
  post?: string;
  delete?: string;
  patch?: string;
  body?: string;
  additional_bindings?: HttpRule[];
  additionalBindings?: HttpRule[];
}

const VERBS = ["get", "put", "post", "delete", "patch"] as const;

/** An http rule and its additional bindings as [HTTP method, path, body] triples. */
function bindings(rule: HttpRule): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const v of VERBS) if (rule[v]) out.push([v.toUpperCase(), rule[v]!, rule.body ?? ""]);
  for (const extra of rule.additional_bindings ?? rule.additionalBindings ?? []) out.push(...bindings(extra));
  return out;
}

/** The method's rule from the descriptor: parsedOptions keeps nested bindings, options the flat form. */
function annotation(m: { options?: Record<string, unknown>; parsedOptions?: Record<string, unknown>[] }): HttpRule | undefined {
  for (const o of m.parsedOptions ?? []) if (o["(google.api.http)"]) return o["(google.api.http)"] as HttpRule;
  const rule: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.options ?? {})) {
    if (k.startsWith("(google.api.http).")) rule[k.slice("(google.api.http).".length)] = String(v);
  }
  return Object.keys(rule).length ? (rule as HttpRule) : undefined;
}

/** Service-config rules by fully-qualified method name (the selector). */
function configRules(): Map<string, HttpRule> {
  const rules = new Map<string, HttpRule>();
  const http = (serviceConfig as { http?: { rules?: (HttpRule & { selector: string })[] } }).http;
  for (const r of http?.rules ?? []) rules.set(r.selector, r);
  return rules;
}

function buildRoutes(): Route[] {
  const routes: Route[] = [];
  const overrides = configRules();
  for (const service of Object.keys(SERVICES) as ServiceName[]) {
    const fqService = SERVICES[service];
    const scope = fqService.slice(0, fqService.lastIndexOf("."));
    for (const [method, m] of Object.entries(serviceMethods(service))) {
      if (m.requestStream || m.responseStream) continue;
      const rules = [overrides.get(`${fqService}.${method}`), annotation(m)].filter((r): r is HttpRule => !!r);
      for (const [httpMethod, path, body] of rules.flatMap(bindings)) {
        routes.push({
          key: `${service}.${method}`,
          httpMethod,
          template: parseTemplate(path),
          body,
          requestType: resolveType(m.requestType, scope),
          responseType: resolveType(m.responseType, scope),
        });
      }
    }
  }
  return routes;
}

export const ROUTES: readonly Route[] = buildRoutes();

/** Routes by custom verb ("" for none), so a request is matched against a handful only. */
const byVerb = new Map<string, Route[]>();
for (const r of ROUTES) {
  const list = byVerb.get(r.template.verb) ?? [];
  list.push(r);
  byVerb.set(r.template.verb, list);
}

export type RouteMatch =
  | { route: Route; bound: Map<string, string> }
  /** The path exists, but not for this HTTP method. */
  | { allowed: string[] };

/** Finds the route for a method and a raw (still percent-encoded) path without its query. */
export function findRoute(httpMethod: string, path: string): RouteMatch | undefined {
  const parts = path.split("/").slice(1);
  const last = parts[parts.length - 1] ?? "";
  const colon = last.lastIndexOf(":");
  let verb = "";
  if (colon >= 0) {
    verb = last.slice(colon + 1);
    parts[parts.length - 1] = last.slice(0, colon);
  }
  const allowed: string[] = [];
  for (const route of byVerb.get(verb) ?? []) {
    const bound = matchTemplate(route.template, parts);
    if (!bound) continue;
    if (route.httpMethod === httpMethod) return { route, bound };
    if (!allowed.includes(route.httpMethod)) allowed.push(route.httpMethod);
  }
  return allowed.length ? { allowed } : undefined;
}

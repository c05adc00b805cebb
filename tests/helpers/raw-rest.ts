/**
 * A raw REST client for the emulator: calls "Service.Method" with a proto-loader shaped request,
 * as a GAPIC REST transport would — path variables from the request's fields, the rest in the
 * body or the query — and rejects with the gRPC code of Google's error body, like raw-grpc.ts.
 */
import * as grpc from "@grpc/grpc-js";
import { messageToJson } from "../../src/proto/json.ts";
import { ROUTES, findRoute, type Route } from "../../src/rest/routes.ts";
import { CALL_TIMEOUT_MS } from "./raw-grpc.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

/** What a failed REST call rejects with: the gRPC code of `error.status`, and the body. */
export interface RestError extends Error {
  code: number;
  details: string;
  httpStatus: number;
  error: Obj;
}

function take(json: Obj, path: string): string {
  const names = path.split(".");
  let o = json;
  for (const n of names.slice(0, -1)) o = o?.[n] ?? {};
  const v = o[names[names.length - 1]];
  delete o[names[names.length - 1]];
  return String(v ?? "");
}

/** Percent-encodes a bound value; a multi-segment variable keeps its slashes. */
const encodeVar = (v: string, multi: boolean) => (multi ? v.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(v));

function flatten(json: Obj, prefix: string, q: URLSearchParams): void {
  for (const [k, v] of Object.entries(json)) {
    const name = prefix + k;
    if (Array.isArray(v)) for (const x of v) q.append(name, String(x));
    else if (v && typeof v === "object") flatten(v, name + ".", q);
    else q.append(name, String(v));
  }
}

/** The route of a method, preferring the descriptor's own annotation over the service config's. */
export function routeOf(key: string): Route {
  const routes = ROUTES.filter((r) => r.key === key);
  if (!routes.length) throw new Error(`no REST route for ${key}`);
  return routes[routes.length - 1];
}

/** Builds the HTTP request for a call: [method, path with query, body or undefined]. */
export function httpRequest(key: string, req: Obj): [string, string, string | undefined] {
  const route = routeOf(key);
  const json = messageToJson(route.requestType, req);
  const path = route.template.source.replace(/\{([^}=]+)(?:=([^}]*))?\}/g, (_, field: string, pattern?: string) =>
    encodeVar(take(json, field), !!pattern && pattern !== "*"),
  );
  // As GAPIC transcoders do: a value outside the variable's pattern cannot be sent at all.
  const found = findRoute(route.httpMethod, path);
  if (!found || !("route" in found) || found.route.key !== key) throw new Error(`${key}: the request does not fit ${route.template.source}`);
  const q = new URLSearchParams();
  let body: string | undefined;
  if (route.body === "*") body = JSON.stringify(json);
  else {
    if (route.body) {
      body = JSON.stringify(json[route.body] ?? {});
      delete json[route.body];
    }
    flatten(json, "", q);
  }
  const query = q.toString();
  return [route.httpMethod, query ? `${path}?${query}` : path, body];
}

export interface RawRest {
  /** Calls a unary method; resolves with the JSON response, rejects with a RestError. */
  call(service: string, method: string, req: Obj): Promise<Obj>;
}

export function rawRest(endpoint: string): RawRest {
  return {
    call(service, method, req) {
      // Built before any await: a request no route can carry throws at once.
      const [httpMethod, path, body] = httpRequest(`${service}.${method}`, req);
      return send(httpMethod, path, body);
    },
  };

  async function send(httpMethod: string, path: string, body: string | undefined): Promise<Obj> {
    const res = await fetch(`http://${endpoint}${path}`, {
      method: httpMethod,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const json = (await res.json()) as Obj;
    if (res.ok) return json;
    const status = json.error?.status as keyof typeof grpc.status;
    const err = new Error(json.error?.message) as RestError;
    err.code = grpc.status[status] ?? grpc.status.UNKNOWN;
    err.details = json.error?.message ?? "";
    err.httpStatus = res.status;
    err.error = json.error;
    throw err;
  }
}
